import type { GroupRow } from '../db/schema.ts';
import type { GroupDetail, GroupListItem } from '../../../shared/src/groups.ts';
import type { ProjectSummary } from '../../../shared/src/projects.ts';
import { bool, boolOrNull, json } from '../util/rows.ts';
import { DEFAULT_BRANCH_PROTECTION_DEFAULTS, type GroupListRow } from '../services/groups/groups.ts';

export interface GroupExtras {
  /** Bytes stored for the group tree, present when statistics were asked for by an administrator. */
  storageSize?: number;
  customAttributes?: { key: string; value: string }[];
}

export const groupWebUrl = (baseUrl: string, g: Pick<GroupRow, 'full_path'>) => `${baseUrl}/groups/${g.full_path}`;
export const groupAvatarUrl = (baseUrl: string, g: Pick<GroupRow, 'id' | 'avatar_upload_id'>) =>
  g.avatar_upload_id === null ? null : `${baseUrl}/api/v4/groups/${g.id}/avatar?v=${g.avatar_upload_id}`;

function statistics(size: number) {
  return {
    storage_size: size,
    repository_size: 0,
    wiki_size: 0,
    lfs_objects_size: 0,
    job_artifacts_size: 0,
    pipeline_artifacts_size: 0,
    packages_size: 0,
    snippets_size: 0,
    uploads_size: size,
  };
}

/**
 * Nearly every group stores the same defaults text: each distinct text is parsed once and the
 * (frozen) value shared by the answers that show it, a list of 100 groups parsing it once.
 */
const parsedDefaults = new Map<string, GroupListItem['default_branch_protection_defaults']>();
function protectionDefaults(text: string | null): GroupListItem['default_branch_protection_defaults'] {
  if (!text) return DEFAULT_BRANCH_PROTECTION_DEFAULTS;
  let value = parsedDefaults.get(text);
  if (value === undefined) {
    value = deepFreeze(json(text, DEFAULT_BRANCH_PROTECTION_DEFAULTS));
    if (parsedDefaults.size >= 256) parsedDefaults.clear();
    parsedDefaults.set(text, value);
  }
  return value;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') for (const v of Object.values(Object.freeze(value))) deepFreeze(v);
  return value;
}

/** An item of GET /groups: every field named, nothing spread from the row. */
export function presentGroupListItem(g: GroupListRow, baseUrl: string, extras: GroupExtras = {}): GroupListItem {
  const item: GroupListItem = {
    id: g.id,
    web_url: groupWebUrl(baseUrl, g),
    name: g.name,
    path: g.path,
    description: g.description,
    visibility: g.visibility as GroupListItem['visibility'],
    share_with_group_lock: bool(g.share_with_group_lock),
    require_two_factor_authentication: bool(g.require_two_factor_authentication),
    two_factor_grace_period: g.two_factor_grace_period,
    project_creation_level: g.project_creation_level,
    auto_devops_enabled: boolOrNull(g.auto_devops_enabled),
    subgroup_creation_level: g.subgroup_creation_level,
    emails_disabled: !bool(g.emails_enabled),
    emails_enabled: bool(g.emails_enabled),
    mentions_disabled: boolOrNull(g.mentions_disabled),
    lfs_enabled: bool(g.lfs_enabled),
    math_rendering_limits_enabled: bool(g.math_rendering_limits_enabled),
    lock_math_rendering_limits_enabled: bool(g.lock_math_rendering_limits_enabled),
    default_branch: g.default_branch,
    default_branch_protection: g.default_branch_protection,
    default_branch_protection_defaults: protectionDefaults(g.default_branch_protection_defaults),
    avatar_url: groupAvatarUrl(baseUrl, g),
    request_access_enabled: bool(g.request_access_enabled),
    repository_storage: g.repository_storage,
    full_name: g.full_name,
    full_path: g.full_path,
    file_template_project_id: g.file_template_project_id,
    parent_id: g.parent_id,
    created_at: g.created_at,
    ip_restriction_ranges: g.ip_restriction_ranges,
    shared_runners_setting: g.shared_runners_setting as GroupListItem['shared_runners_setting'],
    marked_for_deletion_on: g.marked_for_deletion_on,
    archived: bool(g.archived),
  };
  if (extras.storageSize !== undefined) {
    item.statistics = statistics(extras.storageSize);
    if (g.parent_id === null) {
      item.root_storage_statistics = { ...statistics(extras.storageSize), container_registry_size: 0, container_registry_size_is_estimated: false };
    }
  }
  if (extras.customAttributes) item.custom_attributes = extras.customAttributes;
  return item;
}

export interface GroupDetailExtras extends GroupExtras {
  /** The caller is an Owner of the group or an administrator: owner-only fields are shown. */
  showSettings: boolean;
  projects?: ProjectSummary[];
  sharedProjects?: ProjectSummary[];
}

/** GET /groups/:id and PUT /groups/:id. */
export function presentGroupDetail(g: GroupRow, baseUrl: string, extras: GroupDetailExtras): GroupDetail {
  // Added to the list item rather than spread from it: V8 copies a spread of this many
  // fields, then the added ones, key by key (some 20 times slower here).
  const detail: GroupDetail = Object.assign(presentGroupListItem(g, baseUrl, extras), {
    shared_with_groups: [],
    shared_runners_minutes_limit: g.shared_runners_minutes_limit,
    extra_shared_runners_minutes_limit: g.extra_shared_runners_minutes_limit,
    membership_lock: bool(g.membership_lock),
    wiki_access_level: g.wiki_access_level as GroupDetail['wiki_access_level'],
    ai_features_enabled: bool(g.ai_features_enabled),
    lock_ai_features_enabled: bool(g.lock_ai_features_enabled),
    ai_availability: g.ai_availability as GroupDetail['ai_availability'],
    experiment_features_enabled: bool(g.experiment_features_enabled),
    prevent_forking_outside_group: bool(g.prevent_forking_outside_group),
    allowed_email_domains_list: g.allowed_email_domains_list,
    max_artifacts_size: g.max_artifacts_size,
    step_up_auth_required_oauth_provider: g.step_up_auth_required_oauth_provider,
  });
  if (g.parent_id === null) {
    detail.prevent_sharing_groups_outside_hierarchy = bool(g.prevent_sharing_groups_outside_hierarchy);
    detail.web_based_commit_signing_enabled = bool(g.web_based_commit_signing_enabled);
  }
  if (extras.showSettings) {
    detail.runners_token = g.runners_token;
    detail.enabled_git_access_protocol = g.enabled_git_access_protocol as GroupDetail['enabled_git_access_protocol'];
    if (g.parent_id === null) {
      detail.unique_project_download_limit = g.unique_project_download_limit;
      detail.unique_project_download_limit_interval_in_seconds = g.unique_project_download_limit_interval_in_seconds;
      detail.unique_project_download_limit_allowlist = json<string[]>(g.unique_project_download_limit_allowlist, []);
      detail.unique_project_download_limit_alertlist = json<number[]>(g.unique_project_download_limit_alertlist, []);
      detail.auto_ban_user_on_excessive_projects_download = bool(g.auto_ban_user_on_excessive_projects_download);
    }
  }
  if (g.import_status) {
    detail.import_status = g.import_status;
    detail.import_error = g.import_error;
  }
  if (extras.projects) detail.projects = extras.projects;
  if (extras.sharedProjects) detail.shared_projects = extras.sharedProjects;
  return detail;
}
