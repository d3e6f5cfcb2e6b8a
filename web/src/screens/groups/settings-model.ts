import type { GroupDetail, GroupUpdateBody, GroupUpdateInput } from '../../../../shared/src/groups.ts';
import type { groupProjectCreationLevel, subgroupCreationLevel } from '../../../../shared/src/groups.ts';
import type { z } from 'zod';

/**
 * The settings form works on the input shape of the shared PUT /groups/:id body, so the same
 * zod schema that guards the server validates the form. Values are filled from the group
 * detail; only fields the user changed are sent.
 */
export type SettingsValues = GroupUpdateInput;

export const isTopLevel = (g: Pick<GroupDetail, 'parent_id'>) => g.parent_id === null;

export function toFormValues(g: GroupDetail): SettingsValues {
  const protection = g.default_branch_protection_defaults;
  const values: SettingsValues = {
    // General
    name: g.name,
    path: g.path,
    description: g.description ?? '',
    visibility: g.visibility,
    // Permissions
    request_access_enabled: g.request_access_enabled,
    share_with_group_lock: g.share_with_group_lock,
    membership_lock: g.membership_lock,
    project_creation_level: g.project_creation_level as z.infer<typeof groupProjectCreationLevel>,
    subgroup_creation_level: g.subgroup_creation_level as z.infer<typeof subgroupCreationLevel>,
    prevent_forking_outside_group: g.prevent_forking_outside_group,
    // Security
    require_two_factor_authentication: g.require_two_factor_authentication,
    two_factor_grace_period: g.two_factor_grace_period,
    ip_restriction_ranges: g.ip_restriction_ranges ?? '',
    allowed_email_domains_list: g.allowed_email_domains_list ?? '',
    enabled_git_access_protocol: g.enabled_git_access_protocol ?? 'all',
    // Merge requests and branches
    default_branch: g.default_branch ?? '',
    default_branch_protection_defaults: {
      allowed_to_push: protection.allowed_to_push.map((a) => ({ access_level: a.access_level })),
      allow_force_push: protection.allow_force_push,
      allowed_to_merge: protection.allowed_to_merge.map((a) => ({ access_level: a.access_level })),
      developer_can_initial_push: protection.developer_can_initial_push ?? false,
    },
    // Features
    lfs_enabled: g.lfs_enabled,
    emails_enabled: g.emails_enabled ?? true,
    mentions_disabled: g.mentions_disabled ?? false,
    wiki_access_level: g.wiki_access_level,
    math_rendering_limits_enabled: g.math_rendering_limits_enabled,
    ai_features_enabled: g.ai_features_enabled,
    experiment_features_enabled: g.experiment_features_enabled,
    shared_runners_setting: g.shared_runners_setting,
    max_artifacts_size: g.max_artifacts_size,
  };
  if (isTopLevel(g)) {
    values.prevent_sharing_groups_outside_hierarchy = g.prevent_sharing_groups_outside_hierarchy ?? false;
    values.unique_project_download_limit = g.unique_project_download_limit ?? 0;
    values.unique_project_download_limit_interval_in_seconds = g.unique_project_download_limit_interval_in_seconds ?? 0;
    values.unique_project_download_limit_allowlist = g.unique_project_download_limit_allowlist ?? [];
    values.unique_project_download_limit_alertlist = (g.unique_project_download_limit_alertlist ?? []).map(String);
    values.auto_ban_user_on_excessive_projects_download = g.auto_ban_user_on_excessive_projects_download ?? false;
  }
  return values;
}

const anyDirty = (mark: unknown): boolean =>
  mark === true || (Array.isArray(mark) ? mark.some(anyDirty) : typeof mark === 'object' && mark !== null && Object.values(mark).some(anyDirty));

/**
 * The validated values of the fields the user touched and changed. A nested field (branch
 * protection) is sent whole when any part of it changed: the server merges it.
 */
export function changedFields(parsed: GroupUpdateBody, dirty: Record<string, unknown>): Partial<GroupUpdateBody> {
  const out: Record<string, unknown> = {};
  for (const [key, mark] of Object.entries(dirty)) {
    if (anyDirty(mark) && key in parsed) out[key] = parsed[key as keyof GroupUpdateBody];
  }
  return out as Partial<GroupUpdateBody>;
}

/** Form paths that render an input, so a server error can land under it. */
export function knownPaths(values: SettingsValues): Set<string> {
  const paths = new Set(Object.keys(values));
  for (const k of Object.keys(values.default_branch_protection_defaults ?? {})) paths.add(`default_branch_protection_defaults.${k}`);
  return paths;
}

/** `default_branch_protection_defaults.allowed_to_push.0.access_level` → the nearest path the form renders. */
export function formPathFor(serverPath: string, known: Set<string>): string | undefined {
  const parts = serverPath.split('.');
  for (let n = parts.length; n > 0; n--) {
    const candidate = parts.slice(0, n).join('.');
    if (known.has(candidate)) return candidate;
  }
  return undefined;
}

/** The first message anywhere in a react-hook-form error node (arrays and objects hold theirs inside). */
export function firstMessage(node: unknown): string | undefined {
  if (!node || typeof node !== 'object') return undefined;
  const own = (node as { message?: unknown }).message;
  if (typeof own === 'string' && own) return own;
  for (const value of Object.values(node)) {
    if (value && typeof value === 'object' && value !== (node as { ref?: unknown }).ref) {
      const found = firstMessage(value);
      if (found) return found;
    }
  }
  return undefined;
}

export const FIELD_LABELS: Record<string, string> = {
  name: 'Group name',
  path: 'Group URL',
  description: 'Description',
  visibility: 'Visibility',
  avatar: 'Avatar',
  request_access_enabled: 'Access requests',
  share_with_group_lock: 'Sharing with other groups',
  membership_lock: 'Membership lock',
  prevent_sharing_groups_outside_hierarchy: 'Sharing outside the hierarchy',
  project_creation_level: 'Roles allowed to create projects',
  subgroup_creation_level: 'Roles allowed to create subgroups',
  prevent_forking_outside_group: 'Forking outside the group',
  require_two_factor_authentication: 'Two-factor authentication',
  two_factor_grace_period: 'Two-factor grace period',
  ip_restriction_ranges: 'Allowed IP addresses',
  allowed_email_domains_list: 'Allowed email domains',
  enabled_git_access_protocol: 'Git access protocols',
  default_branch: 'Initial default branch name',
  default_branch_protection_defaults: 'Default branch protection',
  lfs_enabled: 'Large File Storage',
  emails_enabled: 'Email notifications',
  mentions_disabled: 'Group mentions',
  wiki_access_level: 'Group wiki',
  math_rendering_limits_enabled: 'Math rendering limits',
  ai_features_enabled: 'AI features',
  experiment_features_enabled: 'Experiment and beta features',
  shared_runners_setting: 'Instance runners',
  max_artifacts_size: 'Maximum artifacts size',
  unique_project_download_limit: 'Download limit',
  unique_project_download_limit_interval_in_seconds: 'Download limit interval',
  unique_project_download_limit_allowlist: 'Users excluded from the limit',
  unique_project_download_limit_alertlist: 'Users to alert',
  auto_ban_user_on_excessive_projects_download: 'Automatic ban',
};

export const labelFor = (path: string) => FIELD_LABELS[path.split('.')[0]] ?? path.replace(/_/g, ' ');
