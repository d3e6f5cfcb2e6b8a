import { z } from './errors.ts';
import { boolParam } from './params.ts';

/** Instance settings an administrator reads and changes (GET/PUT /application/settings). */
export const applicationSettings = z.object({
  /** Outbound requests (webhooks, integrations) may reach loopback and private addresses. */
  allow_local_requests_from_web_hooks_and_services: z.boolean(),
  /** Stands for the feature flag of POST /groups/:id/tokens/revoke. */
  group_token_revocation_enabled: z.boolean(),
});
export type ApplicationSettings = z.infer<typeof applicationSettings>;

export const APPLICATION_SETTING_DEFAULTS: ApplicationSettings = {
  allow_local_requests_from_web_hooks_and_services: false,
  group_token_revocation_enabled: true,
};

export const applicationSettingsUpdateBody = z
  .object({
    allow_local_requests_from_web_hooks_and_services: boolParam().optional(),
    group_token_revocation_enabled: boolParam().optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), { message: 'at least one parameter must be provided' });
