import { z } from './errors.ts';
import { boolParam, intParam, intListParam, dateParam, stringListParam, paginationQuery } from './params.ts';
import { visibility } from './roles.ts';
import { projectSummary, sharedWithGroup } from './projects.ts';

export { sharedWithGroup };
import { customAttribute } from './custom-attributes.ts';

const PATH_RE = /^[a-zA-Z0-9_][a-zA-Z0-9_.-]*$/;
export const namespacePath = z
  .string()
  .min(1)
  .max(255)
  .regex(PATH_RE, 'can contain only letters, digits, "_", "-" and "."; cannot start with "-" or "."')
  .refine((p) => !/\.(git|atom)$/.test(p), 'cannot end in .git or .atom');

const isIpOrCidr = (v: string) =>
  [z.ipv4(), z.ipv6(), z.cidrv4(), z.cidrv6()].some((s) => s.safeParse(v).success);
const DOMAIN_RE = /^(?=.{1,253}$)(\*\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;
const commaList = (check: (v: string) => boolean, what: string) =>
  z
    .string()
    .max(2000)
    .refine(
      (s) => s.trim() === '' || s.split(',').every((v) => check(v.trim())),
      `must be a comma-separated list of ${what}`,
    );

export const groupProjectCreationLevel = z.enum(['noone', 'owner', 'maintainer', 'developer', 'administrator']);
export const subgroupCreationLevel = z.enum(['owner', 'maintainer']);
export const sharedRunnersSetting = z.enum([
  'enabled',
  'disabled_and_overridable',
  'disabled_and_unoverridable',
  'disabled_with_override',
]);
export const gitAccessProtocol = z.enum(['ssh', 'http', 'all']);
export const wikiAccessLevel = z.enum(['disabled', 'private', 'enabled']);
export const aiAvailability = z.enum(['default_on', 'default_off', 'never_on']);

const protectionAccessLevel = z.object({ access_level: intParam().pipe(z.union([z.literal(0), z.literal(30), z.literal(40), z.literal(60)])) });
export const branchProtectionDefaults = z.object({
  allowed_to_push: z.array(protectionAccessLevel).max(10).optional(),
  allow_force_push: boolParam().optional(),
  allowed_to_merge: z.array(protectionAccessLevel).max(10).optional(),
  developer_can_initial_push: boolParam().optional(),
});
export type BranchProtectionDefaults = z.infer<typeof branchProtectionDefaults>;

/** Body of PUT /groups/:id (spec part 1, "PUT /groups/:id"); every field optional. */
export const groupUpdateBody = z.object({
  name: z.string().trim().min(1).max(255).optional(),
  path: namespacePath.optional(),
  description: z.string().max(500).optional(),
  auto_devops_enabled: boolParam().optional(),
  avatar: z.union([z.literal(''), z.null()]).optional(),
  default_branch: z.string().max(255).optional(),
  default_branch_protection: intParam().pipe(z.number().int().min(0).max(4)).optional(),
  default_branch_protection_defaults: branchProtectionDefaults.optional(),
  enabled_git_access_protocol: gitAccessProtocol.optional(),
  emails_disabled: boolParam().optional(),
  emails_enabled: boolParam().optional(),
  lfs_enabled: boolParam().optional(),
  mentions_disabled: boolParam().optional(),
  prevent_sharing_groups_outside_hierarchy: boolParam().optional(),
  project_creation_level: groupProjectCreationLevel.optional(),
  request_access_enabled: boolParam().optional(),
  require_two_factor_authentication: boolParam().optional(),
  shared_runners_setting: sharedRunnersSetting.optional(),
  share_with_group_lock: boolParam().optional(),
  step_up_auth_required_oauth_provider: z.string().max(255).optional(),
  subgroup_creation_level: subgroupCreationLevel.optional(),
  two_factor_grace_period: intParam().pipe(z.number().int().min(0).max(10_000)).optional(),
  visibility: visibility.optional(),
  extra_shared_runners_minutes_limit: intParam().pipe(z.number().int().min(0)).nullable().optional(),
  file_template_project_id: intParam().pipe(z.number().int().min(1)).nullable().optional(),
  membership_lock: boolParam().optional(),
  prevent_forking_outside_group: boolParam().optional(),
  shared_runners_minutes_limit: intParam().pipe(z.number().int().min(0)).nullable().optional(),
  unique_project_download_limit: intParam().pipe(z.number().int().min(0).max(10_000)).optional(),
  unique_project_download_limit_interval_in_seconds: intParam().pipe(z.number().int().min(0).max(864_000)).optional(),
  unique_project_download_limit_allowlist: stringListParam().pipe(z.array(z.string().min(1).max(255)).max(100)).optional(),
  unique_project_download_limit_alertlist: intListParam().pipe(z.array(z.number().int().min(1)).max(100)).optional(),
  auto_ban_user_on_excessive_projects_download: boolParam().optional(),
  ip_restriction_ranges: commaList(isIpOrCidr, 'IP addresses or subnets').optional(),
  allowed_email_domains_list: commaList((d) => DOMAIN_RE.test(d), 'domains').optional(),
  wiki_access_level: wikiAccessLevel.optional(),
  ai_availability: aiAvailability.optional(),
  experiment_features_enabled: boolParam().optional(),
  math_rendering_limits_enabled: boolParam().optional(),
  lock_math_rendering_limits_enabled: boolParam().optional(),
  ai_features_enabled: boolParam().optional(),
  lock_ai_features_enabled: boolParam().optional(),
  max_artifacts_size: intParam().pipe(z.number().int().min(0)).nullable().optional(),
  web_based_commit_signing_enabled: boolParam().optional(),
});
export type GroupUpdateBody = z.infer<typeof groupUpdateBody>;
export type GroupUpdateInput = z.input<typeof groupUpdateBody>;

/** Body of POST /groups (not shown in the spec; the platform's usual shape). */
export const groupCreateBody = z.object({
  name: z.string().trim().min(1).max(255),
  path: namespacePath,
  parent_id: intParam().pipe(z.number().int().min(1)).nullable().optional(),
  description: z.string().max(500).optional(),
  visibility: visibility.optional(),
  project_creation_level: groupProjectCreationLevel.optional(),
  subgroup_creation_level: subgroupCreationLevel.optional(),
  request_access_enabled: boolParam().optional(),
  lfs_enabled: boolParam().optional(),
  emails_enabled: boolParam().optional(),
  default_branch: z.string().max(255).optional(),
});
export type GroupCreateBody = z.infer<typeof groupCreateBody>;

export const groupOrderBy = z.enum(['name', 'path', 'id', 'similarity']);

/** Query of GET /groups. */
export const groupListQuery = paginationQuery.extend({
  skip_groups: intListParam().optional(),
  all_available: boolParam().optional(),
  search: z.string().max(255).optional(),
  order_by: groupOrderBy.optional(),
  sort: z.enum(['asc', 'desc']).optional(),
  statistics: boolParam().optional(),
  visibility: visibility.optional(),
  with_custom_attributes: boolParam().optional(),
  owned: boolParam().optional(),
  min_access_level: intParam().pipe(z.union([z.literal(5), z.literal(10), z.literal(15), z.literal(20), z.literal(30), z.literal(40), z.literal(50)])).optional(),
  top_level_only: boolParam().optional(),
  repository_storage: z.string().max(255).optional(),
  marked_for_deletion_on: dateParam().optional(),
  active: boolParam().optional(),
  archived: boolParam().optional(),
  pagination: z.enum(['offset', 'keyset']).optional(),
  cursor: z.string().max(1000).optional(),
  custom_attributes: z.record(z.string(), z.string()).optional(),
});
export type GroupListQuery = z.infer<typeof groupListQuery>;

export const groupDetailQuery = z.object({
  with_custom_attributes: boolParam().optional(),
  with_projects: boolParam().optional(),
});

const storageStatistics = z.object({
  storage_size: z.number().int(),
  repository_size: z.number().int(),
  wiki_size: z.number().int(),
  lfs_objects_size: z.number().int(),
  job_artifacts_size: z.number().int(),
  pipeline_artifacts_size: z.number().int(),
  packages_size: z.number().int(),
  snippets_size: z.number().int(),
  uploads_size: z.number().int(),
});

/** Item of GET /groups. */
export const groupListItem = z.object({
  id: z.number().int(),
  web_url: z.string(),
  name: z.string(),
  path: z.string(),
  description: z.string(),
  visibility,
  share_with_group_lock: z.boolean(),
  require_two_factor_authentication: z.boolean(),
  two_factor_grace_period: z.number().int(),
  project_creation_level: z.string(),
  auto_devops_enabled: z.boolean().nullable(),
  subgroup_creation_level: z.string(),
  emails_disabled: z.boolean().nullable(),
  emails_enabled: z.boolean().nullable(),
  mentions_disabled: z.boolean().nullable(),
  lfs_enabled: z.boolean(),
  math_rendering_limits_enabled: z.boolean(),
  lock_math_rendering_limits_enabled: z.boolean(),
  default_branch: z.string().nullable(),
  default_branch_protection: z.number().int(),
  default_branch_protection_defaults: z.object({
    allowed_to_push: z.array(z.object({ access_level: z.number().int() })),
    allow_force_push: z.boolean(),
    allowed_to_merge: z.array(z.object({ access_level: z.number().int() })),
    developer_can_initial_push: z.boolean().optional(),
  }),
  avatar_url: z.string().nullable(),
  request_access_enabled: z.boolean(),
  repository_storage: z.string(),
  full_name: z.string(),
  full_path: z.string(),
  file_template_project_id: z.number().int().nullable(),
  parent_id: z.number().int().nullable(),
  created_at: z.string(),
  ip_restriction_ranges: z.string().nullable(),
  shared_runners_setting: sharedRunnersSetting,
  marked_for_deletion_on: z.string().nullable(),
  archived: z.boolean(),
  statistics: storageStatistics.optional(),
  root_storage_statistics: storageStatistics
    .extend({ container_registry_size: z.number().int(), container_registry_size_is_estimated: z.boolean() })
    .optional(),
  custom_attributes: z.array(customAttribute).optional(),
});
export type GroupListItem = z.infer<typeof groupListItem>;

/** GET /groups/:id and PUT /groups/:id. */
export const groupDetail = groupListItem.extend({
  shared_with_groups: z.array(sharedWithGroup),
  runners_token: z.string().optional(),
  enabled_git_access_protocol: gitAccessProtocol.optional(),
  prevent_sharing_groups_outside_hierarchy: z.boolean().optional(),
  projects: z.array(projectSummary).optional(),
  shared_projects: z.array(projectSummary).optional(),
  shared_runners_minutes_limit: z.number().int().nullable(),
  extra_shared_runners_minutes_limit: z.number().int().nullable(),
  membership_lock: z.boolean(),
  wiki_access_level: wikiAccessLevel,
  ai_features_enabled: z.boolean(),
  lock_ai_features_enabled: z.boolean(),
  ai_availability: aiAvailability,
  experiment_features_enabled: z.boolean(),
  prevent_forking_outside_group: z.boolean(),
  unique_project_download_limit: z.number().int().optional(),
  unique_project_download_limit_interval_in_seconds: z.number().int().optional(),
  unique_project_download_limit_allowlist: z.array(z.string()).optional(),
  unique_project_download_limit_alertlist: z.array(z.number().int()).optional(),
  auto_ban_user_on_excessive_projects_download: z.boolean().optional(),
  allowed_email_domains_list: z.string().nullable().optional(),
  max_artifacts_size: z.number().int().nullable(),
  web_based_commit_signing_enabled: z.boolean().optional(),
  step_up_auth_required_oauth_provider: z.string().nullable().optional(),
  /** A group made by POST /groups/import: its import's state, and why it failed (the group is then empty). */
  import_status: z.enum(['scheduled', 'started', 'finished', 'failed']).optional(),
  import_error: z.string().nullable().optional(),
});
export type GroupDetail = z.infer<typeof groupDetail>;
