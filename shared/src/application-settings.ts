import { z } from './errors.ts';
import { boolParam } from './params.ts';

/** Instance settings an administrator reads and changes (GET/PUT /application/settings). */
export const applicationSettings = z.object({
  /** Outbound requests (webhooks, integrations) may reach loopback and private addresses. */
  allow_local_requests_from_web_hooks_and_services: z.boolean(),
  /** The group_agnostic_token_revocation feature flag, on for everyone (POST /groups/:id/tokens/revoke); kept for older clients: the Features API sets it. */
  group_token_revocation_enabled: z.boolean(),
  /** The web_hook_event_resend_api_endpoint_rate_limit feature flag, on for everyone (5 resends a minute per hook and user); kept for older clients: the Features API sets it. */
  web_hook_event_resend_api_endpoint_rate_limit: z.boolean(),
});
export type ApplicationSettings = z.infer<typeof applicationSettings>;

export const APPLICATION_SETTING_DEFAULTS: ApplicationSettings = {
  allow_local_requests_from_web_hooks_and_services: false,
  group_token_revocation_enabled: true,
  web_hook_event_resend_api_endpoint_rate_limit: true,
};

export const applicationSettingsUpdateBody = z
  .object({
    allow_local_requests_from_web_hooks_and_services: boolParam().optional(),
    group_token_revocation_enabled: boolParam().optional(),
    web_hook_event_resend_api_endpoint_rate_limit: boolParam().optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), { message: 'at least one parameter must be provided' });
