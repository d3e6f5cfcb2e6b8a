import { z } from './errors.ts';
import { boolParam } from './params.ts';
import { visibility } from './roles.ts';
import { branchName } from './projects.ts';

/**
 * Instance settings an administrator reads and changes (GET/PUT /application/settings): those of
 * the platform's settings that Gatehouse has, under the platform's names, and two of Gatehouse's
 * own that older clients use.
 */
export const storedApplicationSettings = z.object({
  /** Outbound requests (webhooks, integrations) may reach loopback and private addresses. */
  allow_local_requests_from_web_hooks_and_services: z.boolean(),
  /** The first branch of a project created with a README where neither the request nor its group names one; null: main. */
  default_branch_name: z.string().nullable(),
  /** A new project's visibility where the request names none (at most its group's). */
  default_project_visibility: visibility,
  /** A new top-level group's visibility where the request names none (a subgroup takes its parent's). */
  default_group_visibility: visibility,
  /** The group_agnostic_token_revocation feature flag, on for everyone (POST /groups/:id/tokens/revoke); kept for older clients: the Features API sets it. */
  group_token_revocation_enabled: z.boolean(),
  /** The web_hook_event_resend_api_endpoint_rate_limit feature flag, on for everyone (5 resends a minute per hook and user); kept for older clients: the Features API sets it. */
  web_hook_event_resend_api_endpoint_rate_limit: z.boolean(),
  /** A user an administrator creates without `external` is external: they see only what they are a member of (platform default: off). */
  user_default_external: z.boolean(),
  /** A user an administrator creates without `can_create_group` may create top-level groups (platform default: on). */
  can_create_group: z.boolean(),
});
export type ApplicationSettings = z.infer<typeof storedApplicationSettings>;

/**
 * The platform's former names of settings, still answered and accepted beside the current ones
 * (its API entity exposes each under both names; a write under the former name wins, as there).
 */
export const LEGACY_SETTING_NAMES = {
  allow_local_requests_from_hooks_and_services: 'allow_local_requests_from_web_hooks_and_services',
} as const satisfies Record<string, keyof ApplicationSettings>;

export const applicationSettings = storedApplicationSettings.extend({
  /** Former name of allow_local_requests_from_web_hooks_and_services. */
  allow_local_requests_from_hooks_and_services: z.boolean(),
});
export type ApplicationSettingsAnswer = z.infer<typeof applicationSettings>;

export const APPLICATION_SETTING_DEFAULTS: ApplicationSettings = {
  allow_local_requests_from_web_hooks_and_services: false,
  default_branch_name: null,
  default_project_visibility: 'private',
  default_group_visibility: 'private',
  group_token_revocation_enabled: true,
  web_hook_event_resend_api_endpoint_rate_limit: true,
  user_default_external: false,
  can_create_group: true,
};

export const applicationSettingsUpdateBody = z
  .object({
    allow_local_requests_from_web_hooks_and_services: boolParam().optional(),
    allow_local_requests_from_hooks_and_services: boolParam().optional(),
    /** Empty or null: back to main. */
    default_branch_name: z.union([z.literal(''), branchName]).nullable().optional(),
    default_project_visibility: visibility.optional(),
    default_group_visibility: visibility.optional(),
    group_token_revocation_enabled: boolParam().optional(),
    web_hook_event_resend_api_endpoint_rate_limit: boolParam().optional(),
    user_default_external: boolParam().optional(),
    can_create_group: boolParam().optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), { message: 'at least one parameter must be provided' });
export type ApplicationSettingsUpdateBody = z.infer<typeof applicationSettingsUpdateBody>;
