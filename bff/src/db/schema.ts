import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

/**
 * Table types. Portable storage conventions (one migration history for SQLite and
 * PostgreSQL): booleans are integers 0/1, datetimes are ISO 8601 text with milliseconds
 * and Z (so they sort as text), dates are YYYY-MM-DD text, lists and hashes are JSON text.
 */
type Bool = number;

export interface UsersTable {
  id: Generated<number>;
  username: string;
  name: string;
  email: string;
  state: string;
  is_admin: Bool;
  bot: Bool;
  external: Bool;
  can_create_group: Bool;
  password_digest: string | null;
  bio: string;
  public_email: string | null;
  created_at: string;
  updated_at: string;
  last_sign_in_at: string | null;
  last_activity_on: string | null;
  /** For the bot user behind a group access token: its group. */
  bot_group_id: Generated<number | null>;
}

export interface PersonalAccessTokensTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  description: string | null;
  scopes: string;
  token_digest: string;
  expires_at: string | null;
  revoked: Bool;
  last_used_at: string | null;
  created_at: string;
  /** The token this one replaced by rotation. */
  previous_token_id: Generated<number | null>;
  /** The first token of a rotation chain; every token of a family shares it. */
  family_id: Generated<number | null>;
}

export interface GroupsTable {
  id: Generated<number>;
  name: string;
  path: string;
  full_name: string;
  full_path: string;
  parent_id: number | null;
  /** "/1/5/12/": the IDs from the root down to this group, for ancestor and descendant queries. */
  traversal: string;
  description: string;
  visibility: string;
  avatar_upload_id: Generated<number | null>;
  runners_token: string;
  created_at: string;
  updated_at: string;
  share_with_group_lock: Generated<Bool>;
  require_two_factor_authentication: Generated<Bool>;
  two_factor_grace_period: Generated<number>;
  project_creation_level: Generated<string>;
  subgroup_creation_level: Generated<string>;
  auto_devops_enabled: Generated<Bool | null>;
  emails_enabled: Generated<Bool>;
  mentions_disabled: Generated<Bool | null>;
  lfs_enabled: Generated<Bool>;
  math_rendering_limits_enabled: Generated<Bool>;
  lock_math_rendering_limits_enabled: Generated<Bool>;
  default_branch: string | null;
  default_branch_protection: Generated<number>;
  default_branch_protection_defaults: string;
  request_access_enabled: Generated<Bool>;
  repository_storage: Generated<string>;
  file_template_project_id: Generated<number | null>;
  ip_restriction_ranges: Generated<string | null>;
  allowed_email_domains_list: Generated<string | null>;
  shared_runners_setting: Generated<string>;
  enabled_git_access_protocol: Generated<string>;
  prevent_sharing_groups_outside_hierarchy: Generated<Bool>;
  shared_runners_minutes_limit: Generated<number | null>;
  extra_shared_runners_minutes_limit: Generated<number | null>;
  marked_for_deletion_on: Generated<string | null>;
  archived: Generated<Bool>;
  membership_lock: Generated<Bool>;
  prevent_forking_outside_group: Generated<Bool>;
  wiki_access_level: Generated<string>;
  ai_features_enabled: Generated<Bool>;
  lock_ai_features_enabled: Generated<Bool>;
  ai_availability: Generated<string>;
  experiment_features_enabled: Generated<Bool>;
  unique_project_download_limit: Generated<number>;
  unique_project_download_limit_interval_in_seconds: Generated<number>;
  unique_project_download_limit_allowlist: Generated<string>;
  unique_project_download_limit_alertlist: Generated<string>;
  auto_ban_user_on_excessive_projects_download: Generated<Bool>;
  max_artifacts_size: Generated<number | null>;
  web_based_commit_signing_enabled: Generated<Bool>;
  step_up_auth_required_oauth_provider: Generated<string | null>;
  /** Set on a group made by an import (migration 040): scheduled, started, finished or failed. */
  import_status: Generated<GroupImportStatus | null>;
  import_error: Generated<string | null>;
}

export type GroupImportStatus = 'scheduled' | 'started' | 'finished' | 'failed';

export interface ProjectsTable {
  id: Generated<number>;
  name: string;
  path: string;
  namespace_id: number;
  path_with_namespace: string;
  description: string | null;
  visibility: string;
  default_branch: string | null;
  topics: string;
  archived: Generated<Bool>;
  issues_enabled: Generated<Bool>;
  merge_requests_enabled: Generated<Bool>;
  wiki_enabled: Generated<Bool>;
  jobs_enabled: Generated<Bool>;
  snippets_enabled: Generated<Bool>;
  container_registry_enabled: Generated<Bool>;
  shared_runners_enabled: Generated<Bool>;
  public_jobs: Generated<Bool>;
  request_access_enabled: Generated<Bool>;
  creator_id: number;
  star_count: Generated<number>;
  forks_count: Generated<number>;
  open_issues_count: Generated<number>;
  created_at: string;
  last_activity_at: string;
}

export type SourceType = 'group' | 'project';

export interface MembersTable {
  id: Generated<number>;
  source_type: SourceType;
  source_id: number;
  user_id: number;
  access_level: number;
  expires_at: string | null;
  created_by_id: number | null;
  created_at: string;
  updated_at: string;
}

export interface SessionsTable {
  id_digest: string;
  user_id: number;
  csrf_token: string;
  created_at: string;
  expires_at: string;
  last_seen_at: string;
}

export interface RateLimitsTable {
  key: string;
  window_start: string;
  count: number;
}

export interface UploadsTable {
  id: Generated<number>;
  model_type: string;
  model_id: number;
  filename: string;
  content_type: string;
  size: number;
  data: Buffer;
  created_at: string;
}

/** A file in the file store (bff/src/files, 039): its bytes are published once `complete` is 1. */
export interface StoredFilesTable {
  id: Generated<number>;
  key: string;
  size: Generated<number>;
  /** SHA-256, hex. */
  digest: Generated<string>;
  complete: Generated<number>;
  created_at: string;
}
/** A stored file's bytes on PostgreSQL, in `seq` order. */
export interface StoredFileChunksTable {
  file_id: number;
  seq: number;
  data: Buffer;
}

export interface CustomAttributesTable {
  id: Generated<number>;
  model_type: 'user' | 'group' | 'project';
  model_id: number;
  key: string;
  value: string;
  created_at: string;
  updated_at: string;
}

/** A group's or a project's push rule: a twin (db/twins.ts), at most one per owner. */
export interface PushRulesTable {
  id: Generated<number>;
  group_id: number | null;
  project_id: number | null;
  commit_message_regex: string | null;
  commit_message_negative_regex: string | null;
  branch_name_regex: string | null;
  author_email_regex: string | null;
  file_name_regex: string | null;
  deny_delete_tag: Generated<Bool>;
  member_check: Generated<Bool>;
  prevent_secrets: Generated<Bool>;
  commit_committer_check: Generated<Bool>;
  commit_committer_name_check: Generated<Bool>;
  reject_unsigned_commits: Generated<Bool>;
  reject_non_dco_commits: Generated<Bool>;
  max_file_size: Generated<number>;
  created_at: string;
  updated_at: string;
}

/** Activity: who did what where ("pushed" with its push_data, …), read by the events API. */
export interface EventsTable {
  id: Generated<number>;
  project_id: number | null;
  group_id: number | null;
  author_id: number | null;
  action_name: string;
  target_type: string | null;
  target_id: number | null;
  /** JSON text of the platform's push_data, for pushes. */
  push_data: string | null;
  created_at: string;
  /** The event's number in its project (1, 2, 3…), set by a trigger: see migration 015. */
  project_seq: Generated<number | null>;
  /** The `action` and `target_type` filter values the event answers to, and its number among the project's events of each (triggers set them: see migration 033). */
  action_key: Generated<string | null>;
  action_seq: Generated<number | null>;
  target_key: Generated<string | null>;
  target_seq: Generated<number | null>;
  /** The event's number among its author's events in projects, overall and among those of its `action` and `target_type` values (triggers set them: see migration 036). */
  author_seq: Generated<number | null>;
  author_action_seq: Generated<number | null>;
  author_target_seq: Generated<number | null>;
}

/** An author one of whose events was written dated before an earlier one, or whose numbers have gaps (migration 036): their lists read by offset. */
export interface AuthorEventsMarkTable {
  author_id: number;
}

/** A project one of whose events was written dated before an earlier one (migration 033): its date filters read by offset. */
export interface EventDatesUnorderedTable {
  project_id: number;
}

export interface DeployTokensTable {
  id: Generated<number>;
  group_id: number;
  name: string;
  username: string;
  scopes: string;
  token_digest: string;
  expires_at: string | null;
  revoked: Generated<Bool>;
  created_at: string;
}

export interface FeedTokensTable {
  id: Generated<number>;
  user_id: number;
  token_digest: string;
  revoked: Generated<Bool>;
  created_at: string;
}

/** Instance settings, one row per setting, values as JSON. */
export interface ApplicationSettingsTable {
  key: string;
  value: string;
  updated_at: string;
}

/** A feature flag once set (migration 028): its boolean and percentage gates. */
export interface FeaturesTable {
  name: string;
  boolean_value: number;
  percentage_of_actors: number | null;
  percentage_of_time: number | null;
  created_at: string;
  updated_at: string;
}

/** An actor gate of a flag: a flipper id (`User:3`, `Group:2`, `Project:7`, with `:opt_out` for an opt-out). */
export interface FeatureActorsTable {
  id: Generated<number>;
  feature_name: string;
  actor: string;
  created_at: string;
}

export interface ScimIdentitiesTable {
  id: Generated<number>;
  group_id: number;
  user_id: number;
  extern_uid: string;
  active: Generated<Bool>;
  created_at: string;
  updated_at: string;
}

export interface ScimTokensTable {
  id: Generated<number>;
  group_id: number;
  token_digest: string;
  created_at: string;
}

export interface WebHooksTable {
  id: Generated<number>;
  uuid: string;
  /** A system hook (migration 006's table, no owner column set) is the instance's. */
  scope: 'group' | 'project' | 'system';
  group_id: number | null;
  project_id: number | null;
  /** The URL as configured, with {variable} placeholders for masked parts. */
  url: string;
  name: Generated<string>;
  description: Generated<string>;
  /** Secrets we must send are encrypted at rest (auth/vault.ts), never returned. */
  encrypted_token: string | null;
  encrypted_custom_headers: string | null;
  encrypted_url_variables: string | null;
  custom_webhook_template: string | null;
  push_events_branch_filter: string | null;
  branch_filter_strategy: Generated<string>;
  enable_ssl_verification: Generated<Bool>;
  recent_failures: Generated<number>;
  backoff_count: Generated<number>;
  disabled_until: string | null;
  permanently_disabled: Generated<Bool>;
  created_at: string;
  updated_at: string;
  push_events: Generated<Bool>;
  tag_push_events: Generated<Bool>;
  merge_requests_events: Generated<Bool>;
  repository_update_events: Generated<Bool>;
  issues_events: Generated<Bool>;
  confidential_issues_events: Generated<Bool>;
  note_events: Generated<Bool>;
  confidential_note_events: Generated<Bool>;
  pipeline_events: Generated<Bool>;
  wiki_page_events: Generated<Bool>;
  job_events: Generated<Bool>;
  deployment_events: Generated<Bool>;
  feature_flag_events: Generated<Bool>;
  releases_events: Generated<Bool>;
  milestone_events: Generated<Bool>;
  resource_access_token_events: Generated<Bool>;
  subgroup_events: Generated<Bool>;
  emoji_events: Generated<Bool>;
  member_events: Generated<Bool>;
  project_events: Generated<Bool>;
}

export interface WebHookLogsTable {
  id: Generated<number>;
  web_hook_id: number;
  trigger: string;
  url: string;
  request_headers: string;
  request_data: string;
  response_headers: string;
  response_body: string;
  response_status: string;
  execution_duration: number;
  internal_error_message: string | null;
  idempotency_key: string;
  event_uuid: string;
  created_at: string;
}

export interface JobsTable {
  id: Generated<number>;
  kind: string;
  payload: string;
  state: Generated<'pending' | 'running' | 'done' | 'failed'>;
  run_at: string;
  attempts: Generated<number>;
  max_attempts: Generated<number>;
  locked_by: string | null;
  locked_until: string | null;
  last_error: string | null;
  /** A job that must exist once (a periodic purge) carries a key. */
  unique_key: string | null;
  /** The part of its payload this job shares with the others of its enqueue (job_payloads). */
  shared_payload_id: number | null;
  created_at: string;
  updated_at: string;
}

export interface JobPayloadsTable {
  id: Generated<number>;
  payload: string;
  created_at: string;
}

export interface PipelineTriggersTable {
  id: Generated<number>;
  project_id: number;
  owner_id: number | null;
  description: string;
  token_digest: string;
  /** The owner is shown the whole token, as on the platform: kept encrypted (auth/vault.ts). */
  encrypted_token: string;
  last_used_at: string | null;
  created_at: string;
  updated_at: string;
}

/** CI/CD variables of a group or a project (twins): the value kept encrypted (auth/vault.ts). */
export interface CiVariablesTable {
  id: Generated<number>;
  group_id: number | null;
  project_id: number | null;
  key: string;
  encrypted_value: string;
  variable_type: 'env_var' | 'file';
  protected: number;
  masked: number;
  /** Masked and never shown again through the API (the platform's masked_and_hidden). */
  hidden: number;
  raw: number;
  environment_scope: string;
  description: string | null;
  created_at: string;
  updated_at: string;
}
export type CiVariableRow = Selectable<CiVariablesTable>;

export interface PipelinesTable {
  id: Generated<number>;
  project_id: number;
  iid: number;
  sha: string;
  before_sha: string;
  ref: string;
  tag: Generated<Bool>;
  status: string;
  source: string;
  user_id: number | null;
  trigger_id: number | null;
  /** JSON: [{ key, value }] the pipeline was started with. */
  variables: Generated<string>;
  /** JSON: the inputs the pipeline was started with. */
  inputs: Generated<string>;
  coverage: string | null;
  /** The commit as it was when the pipeline was made, for event payloads (no git read in a transaction). */
  commit_message: Generated<string>;
  commit_author_name: Generated<string>;
  commit_author_email: Generated<string>;
  committed_at: string | null;
  started_at: string | null;
  finished_at: string | null;
  duration: number | null;
  queued_duration: number | null;
  created_at: string;
  updated_at: string;
}

/** Jobs of pipelines; an external CI's jobs are its commit statuses. */
export interface PipelineJobsTable {
  id: Generated<number>;
  pipeline_id: number;
  project_id: number;
  name: string;
  stage: string;
  status: string;
  ref: string;
  sha: string;
  target_url: string | null;
  description: string | null;
  coverage: number | null;
  allow_failure: Generated<Bool>;
  /** Replaced by a later job of the same name: no longer counts in the pipeline's status. */
  retried: Generated<Bool>;
  user_id: number | null;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  finished_at: string | null;
}

// ── Work items (migration 012): labels, milestones, issues, merge requests, notes, resource events.

/** A label of a group (usable by its projects and subgroups) or of a project (twin, db/twins.ts). */
export interface LabelsTable {
  id: Generated<number>;
  group_id: number | null;
  project_id: number | null;
  title: string;
  color: string;
  description: string | null;
  priority: number | null;
  created_at: string;
  updated_at: string;
}

export type LabelTargetType = 'Issue' | 'MergeRequest' | 'Epic';

export interface LabelLinksTable {
  id: Generated<number>;
  label_id: number;
  target_type: LabelTargetType;
  target_id: number;
  created_at: string;
}

/** Group or project milestone (twin); `iid` numbers them per owner. The API is h-plan's. */
export interface MilestonesTable {
  id: Generated<number>;
  group_id: number | null;
  project_id: number | null;
  iid: number;
  title: string;
  description: string | null;
  state: Generated<'active' | 'closed'>;
  start_date: string | null;
  due_date: string | null;
  created_at: string;
  updated_at: string;
}

export interface IssuesTable {
  id: Generated<number>;
  project_id: number;
  iid: number;
  author_id: number | null;
  title: string;
  description: string | null;
  state: Generated<'opened' | 'closed'>;
  confidential: Generated<Bool>;
  milestone_id: number | null;
  weight: number | null;
  due_date: string | null;
  closed_at: string | null;
  closed_by_id: number | null;
  /** No foreign key: epics come in migration 015. */
  epic_id: number | null;
  /** No foreign key: iterations come in migration 013. */
  iteration_id: number | null;
  issue_type: Generated<string>;
  discussion_locked: Bool | null;
  updated_by_id: number | null;
  created_at: string;
  updated_at: string;
}

export interface IssueAssigneesTable {
  issue_id: number;
  user_id: number;
}

export type MergeRequestState = 'opened' | 'closed' | 'merged' | 'locked';

/** `project_id` is the target project; `sha` the source branch's head when last seen. */
export interface MergeRequestsTable {
  id: Generated<number>;
  project_id: number;
  iid: number;
  source_project_id: number | null;
  source_branch: string;
  target_branch: string;
  author_id: number | null;
  title: string;
  description: string | null;
  state: Generated<MergeRequestState>;
  draft: Generated<Bool>;
  milestone_id: number | null;
  sha: string | null;
  /** The merge base with the target branch when last seen (diff_refs.base_sha). */
  base_sha: string | null;
  merge_commit_sha: string | null;
  squash_commit_sha: string | null;
  squash: Generated<Bool>;
  force_remove_source_branch: Generated<Bool>;
  merge_user_id: number | null;
  merged_at: string | null;
  closed_at: string | null;
  closed_by_id: number | null;
  merge_status: Generated<string>;
  discussion_locked: Bool | null;
  updated_by_id: number | null;
  created_at: string;
  updated_at: string;
}

export interface MergeRequestAssigneesTable {
  merge_request_id: number;
  user_id: number;
  created_at: string;
}

export interface MergeRequestReviewersTable {
  merge_request_id: number;
  user_id: number;
  state: Generated<string>;
  created_at: string;
}

/** One person's approval of a merge request (migration 045): at most one each. */
export interface MergeRequestApprovalsTable {
  merge_request_id: number;
  user_id: number;
  created_at: string;
}

export type NoteableType = 'Issue' | 'MergeRequest' | 'Snippet' | 'Epic';

/** A comment on any noteable; `project_id` is null for notes on group things (epics) and personal snippets. */
export interface NotesTable {
  id: Generated<number>;
  project_id: number | null;
  noteable_type: NoteableType;
  noteable_id: number;
  author_id: number | null;
  body: string;
  system: Generated<Bool>;
  internal: Generated<Bool>;
  resolvable: Generated<Bool>;
  resolved_by_id: number | null;
  resolved_at: string | null;
  updated_by_id: number | null;
  created_at: string;
  updated_at: string;
}

/** A comment on a commit (migration 030); `path`, `line` and `line_type` only for one on a line of its diff. */
export interface CommitNotesTable {
  id: Generated<number>;
  project_id: number;
  commit_sha: string;
  author_id: number | null;
  note: string;
  path: string | null;
  line: number | null;
  line_type: 'new' | 'old' | null;
  created_at: string;
}
export type CommitNoteRow = Selectable<CommitNotesTable>;

/** One per close, reopen, merge or lock of an issue, merge request or epic; none for creation. */
export interface ResourceStateEventsTable {
  id: Generated<number>;
  user_id: number | null;
  issue_id: number | null;
  merge_request_id: number | null;
  /** No foreign key: epics come in migration 015. */
  epic_id: number | null;
  state: 'closed' | 'reopened' | 'merged' | 'locked';
  source_commit: string | null;
  source_merge_request_id: number | null;
  created_at: string;
}

export interface ResourceMilestoneEventsTable {
  id: Generated<number>;
  user_id: number | null;
  issue_id: number | null;
  merge_request_id: number | null;
  milestone_id: number | null;
  action: 'add' | 'remove';
  /** The issue's or merge request's state at the time. */
  state: string;
  created_at: string;
}

export interface ResourceWeightEventsTable {
  id: Generated<number>;
  user_id: number | null;
  issue_id: number;
  weight: number | null;
  created_at: string;
}

/** An issue put in (add) or taken out of (remove) an iteration; a roll-over writes both, without a user. */
export interface ResourceIterationEventsTable {
  id: Generated<number>;
  user_id: number | null;
  issue_id: number;
  iteration_id: number;
  action: 'add' | 'remove';
  created_at: string;
}

export type LabelRow = Selectable<LabelsTable>;
export type MilestoneRow = Selectable<MilestonesTable>;
export type IssueRow = Selectable<IssuesTable>;
export type MergeRequestRow = Selectable<MergeRequestsTable>;
export type NoteRow = Selectable<NotesTable>;
export type ResourceStateEventRow = Selectable<ResourceStateEventsTable>;
export type ResourceMilestoneEventRow = Selectable<ResourceMilestoneEventsTable>;
export type ResourceWeightEventRow = Selectable<ResourceWeightEventsTable>;
export type ResourceIterationEventRow = Selectable<ResourceIterationEventsTable>;
// ── end of work items

// Merge trains and merging (016). ProjectsTable gains the merge settings by declaration merging, so this block stays apart.
export interface ProjectsTable {
  merge_method: Generated<string>;
  merge_trains_enabled: Generated<Bool>;
  merge_trains_skip_train_allowed: Generated<Bool>;
  merge_trains_cars_limit: Generated<number>;
}

// Auto-merge, the project's merge settings and the train locks (018).
export interface ProjectsTable {
  only_allow_merge_if_pipeline_succeeds: Generated<Bool>;
  remove_source_branch_after_merge: Generated<Bool>;
  squash_option: Generated<string>;
  merge_pipelines_enabled: Generated<Bool>;
}
export interface MergeRequestsTable {
  auto_merge_enabled: Generated<Bool>;
  /** JSON of what an auto-merge is done with (sha, squash, messages, should_remove_source_branch). */
  merge_params: string | null;
}
export interface TrainLocksTable {
  name: string;
  holder: string;
  locked_until: string;
}

export interface MergeTrainCarsTable {
  id: Generated<number>;
  project_id: number;
  merge_request_id: number;
  active_merge_request_id: number | null;
  target_branch: string;
  user_id: number | null;
  status: string;
  scheduled: Generated<Bool>;
  squash: Generated<Bool>;
  sequence: number;
  pipeline_id: number | null;
  base_sha: string | null;
  source_sha: string | null;
  train_ref_sha: string | null;
  /** The source commit the car was added with: the only one it may merge (null only for cars older than the column). */
  approved_sha: string | null;
  conflict: Generated<Bool>;
  dropped_reason: string | null;
  pipeline_started_at: string | null;
  merged_at: string | null;
  finished_at: string | null;
  duration: number | null;
  created_at: string;
  updated_at: string;
}

export interface MergeRequestContextCommitsTable {
  id: Generated<number>;
  merge_request_id: number;
  sha: string;
  created_at: string;
}

export type MergeTrainCarRow = Selectable<MergeTrainCarsTable>;

/** A scanner report or SBOM uploaded to a pipeline; the digest makes a repeated upload a no-op. */
export interface SecurityReportsTable {
  id: Generated<number>;
  project_id: number;
  pipeline_id: number;
  /** sast | dependency_scanning | container_scanning | secret_detection | dast | cyclonedx */
  report_type: string;
  /** sha256 hex of the uploaded file. */
  digest: string;
  schema_version: string | null;
  scanner_external_id: string | null;
  scanner_name: string | null;
  findings_count: Generated<number>;
  components_count: Generated<number>;
  /** An SBOM's tools (metadata.tools), JSON of security/sbom.ts SbomTool[]; null for other reports and SBOMs uploaded before. */
  sbom_tools: Generated<string | null>;
  /** It came from the project's latest default-branch pipeline, so it defined the project's data. */
  applied: Generated<Bool>;
  uploaded_by_id: number | null;
  created_at: string;
}

/** A project's vulnerability: one finding identity (uuid) with its triage state. */
export interface VulnerabilitiesTable {
  id: Generated<number>;
  project_id: number;
  /** The finding's stable identity (uuid v5 of report type, primary identifier, location and project), as the platform's. */
  uuid: string;
  report_type: string;
  title: string;
  description: string | null;
  message: string | null;
  solution: string | null;
  /** critical | high | medium | low | info | unknown */
  severity: string;
  /** The platform's enum value of the severity (critical 7 … info 1), for ordering. */
  severity_level: number;
  confidence: string | null;
  scanner_external_id: string;
  scanner_name: string;
  scanner_vendor: string | null;
  /** JSON: the report's location object (file/start_line, image/dependency, hostname/path, …). */
  location: Generated<string>;
  /** The file, image or URL the location names, for display and CSV. */
  location_path: string | null;
  /** The affected package (dependency and container scanning), to link findings to dependencies. */
  package_name: string | null;
  package_version: string | null;
  /** JSON: [{ type, name, value, url }], the primary identifier first. */
  identifiers: Generated<string>;
  /** JSON: [{ name, url }]. */
  links: Generated<string>;
  /** JSON: [{ vendor, vector }]. */
  cvss: Generated<string>;
  /** JSON: the report's details object. */
  details: Generated<string>;
  /** detected | confirmed | dismissed | resolved */
  state: string;
  /** acceptable_risk | false_positive | mitigating_control | used_in_tests | not_applicable */
  dismissal_reason: string | null;
  /** The latest default-branch pipeline no longer reports it. */
  resolved_on_default_branch: Generated<Bool>;
  detected_at: string;
  confirmed_at: string | null;
  confirmed_by_id: number | null;
  dismissed_at: string | null;
  dismissed_by_id: number | null;
  resolved_at: string | null;
  resolved_by_id: number | null;
  first_pipeline_id: number | null;
  /** The last pipeline that reported it. */
  last_pipeline_id: number | null;
  created_at: string;
  updated_at: string;
}

/** A vulnerability's state moves (by a user, or by a pipeline when author is null). */
export interface VulnerabilityStateTransitionsTable {
  id: Generated<number>;
  vulnerability_id: number;
  project_id: number;
  from_state: string;
  to_state: string;
  author_id: number | null;
  comment: string | null;
  dismissal_reason: string | null;
  pipeline_id: number | null;
  created_at: string;
}

/** A component of a pipeline's SBOMs; a project's dependency list is its latest applied cyclonedx pipeline's. */
export interface DependenciesTable {
  id: Generated<number>;
  project_id: number;
  pipeline_id: number;
  report_id: number;
  name: string;
  version: string | null;
  /** npm, bundler, pip, maven, go, … (the platform's package manager names). */
  package_manager: string | null;
  purl: string | null;
  /** npm, gem, pypi, maven, golang, … */
  purl_type: string | null;
  /** CycloneDX component type: library, application, … */
  component_type: string;
  bom_ref: string | null;
  /** JSON: [{ spdx_identifier, name, url }]. */
  licenses: Generated<string>;
  /** The lock file or image the component was found in. */
  input_file_path: string | null;
  created_at: string;
}

/** The projects a user put on their instance security dashboard. */
export interface SecurityDashboardProjectsTable {
  id: Generated<number>;
  user_id: number;
  project_id: number;
  created_at: string;
}
/** Vulnerability and dependency list exports (migration 011): one row per export, its file on disk. */
export type ExportKind = 'vulnerability' | 'dependency_list';
export type ExportStatus = 'created' | 'running' | 'finished' | 'failed';
export interface ExportsTable {
  id: Generated<number>;
  kind: ExportKind;
  author_id: number;
  project_id: number | null;
  group_id: number | null;
  pipeline_id: number | null;
  /** csv or pdf (vulnerabilities); the export type (dependency lists). */
  format: string;
  status: Generated<ExportStatus>;
  error: string | null;
  /** Set while unfinished: one export in progress per author and exportable (unique). */
  in_progress_key: string | null;
  /** Where the file of an export written before the file store (039) was: read while it is there. */
  file_path: string | null;
  /** The export's file in the file store (bff/src/files), once finished. */
  file_key: string | null;
  file_size: number | null;
  file_digest: string | null;
  row_count: number | null;
  /** A vulnerability export's report filters as JSON (037); null: every finding. */
  filters: string | null;
  send_email: Generated<number>;
  started_at: string | null;
  finished_at: string | null;
  expires_at: string;
  created_at: string;
  updated_at: string;
}
export type ExportRow = Selectable<ExportsTable>;
/** The projects a security dashboard export covers (025). */
export interface ExportProjectsTable {
  export_id: number;
  project_id: number;
}

/** Project snippets (014); their files are rows. */
export interface SnippetsTable {
  id: Generated<number>;
  project_id: number;
  author_id: number | null;
  title: string;
  description: string | null;
  visibility: string;
  created_at: string;
  updated_at: string;
}

export interface SnippetFilesTable {
  id: Generated<number>;
  snippet_id: number;
  path: string;
  content: string;
}

/** Emoji reactions; `awardable_type` is Issue, MergeRequest, Snippet or Note. */
export interface AwardEmojiTable {
  id: Generated<number>;
  name: string;
  user_id: number;
  awardable_type: string;
  awardable_id: number;
  created_at: string;
  updated_at: string;
}

/** Two-way issue links: `relates_to` or `blocks` (source blocks target). */
export interface IssueLinksTable {
  id: Generated<number>;
  source_id: number;
  target_id: number;
  link_type: string;
  created_at: string;
  updated_at: string;
}

export type IssueLinkRow = Selectable<IssueLinksTable>;
export type SnippetRow = Selectable<SnippetsTable>;
export type SnippetFileRow = Selectable<SnippetFilesTable>;
export type AwardEmojiRow = Selectable<AwardEmojiTable>;

/** Epics of a group (migration 015); labels are `label_links` rows with target_type 'Epic'. */
export interface EpicsTable {
  id: Generated<number>;
  group_id: number;
  iid: number;
  author_id: number | null;
  title: string;
  description: string | null;
  state: Generated<string>;
  confidential: Generated<Bool>;
  parent_id: number | null;
  color: Generated<string>;
  start_date_fixed: string | null;
  start_date_is_fixed: Generated<Bool>;
  due_date_fixed: string | null;
  due_date_is_fixed: Generated<Bool>;
  closed_at: string | null;
  closed_by_id: number | null;
  created_at: string;
  updated_at: string;
}
export type EpicRow = Selectable<EpicsTable>;

/** A group's iteration cadence (ours to manage; the platform does it over GraphQL). */
export interface IterationCadencesTable {
  id: Generated<number>;
  group_id: number;
  title: string;
  description: string | null;
  automatic: Bool;
  start_date: string | null;
  duration_in_weeks: number | null;
  iterations_in_advance: number | null;
  roll_over: Bool;
  active: Bool;
  created_at: string;
  updated_at: string;
}

/** An iteration of a cadence. */
export interface IterationsTable {
  id: Generated<number>;
  iteration_cadence_id: number;
  group_id: number;
  iid: number;
  sequence: number;
  /** 1 upcoming, 2 current, 3 closed: set from the dates when made, moved by the iterations job. */
  state: number;
  /** Null for iterations that automatic scheduling created. */
  title: string | null;
  description: string | null;
  start_date: string;
  due_date: string;
  created_at: string;
  updated_at: string;
}
export type IterationCadenceRow = Selectable<IterationCadencesTable>;
export type IterationRow = Selectable<IterationsTable>;

/** A protected branch or wildcard of a project (migration 031). */
export interface ProtectedBranchesTable {
  id: Generated<number>;
  project_id: number;
  name: string;
  allow_force_push: number;
  code_owner_approval_required: number;
  created_at: string;
  updated_at: string;
}

/** Who may push, merge or unprotect a protected branch: a role (0 no one, 30, 40, 60 administrators). */
export interface ProtectedBranchAccessLevelsTable {
  id: Generated<number>;
  protected_branch_id: number;
  action: 'push' | 'merge' | 'unprotect';
  access_level: number;
}

/** A protected tag or wildcard of a project (migration 031). */
export interface ProtectedTagsTable {
  id: Generated<number>;
  project_id: number;
  name: string;
  created_at: string;
  updated_at: string;
}

/** Who may create a protected tag: a role. */
export interface ProtectedTagAccessLevelsTable {
  id: Generated<number>;
  protected_tag_id: number;
  access_level: number;
}

/** What every instance of one installation shares, recorded by the first to start (038). */
export interface InstanceIdentityTable {
  name: string;
  value: string;
  created_at: string;
}

/** Whether the project's repository was made: if so, a missing directory is an error, not a new repository (038). */
export interface ProjectsTable {
  repository_created: Generated<Bool>;
}

export interface Database {
  instance_identity: InstanceIdentityTable;
  users: UsersTable;
  personal_access_tokens: PersonalAccessTokensTable;
  groups: GroupsTable;
  projects: ProjectsTable;
  members: MembersTable;
  sessions: SessionsTable;
  rate_limits: RateLimitsTable;
  uploads: UploadsTable;
  custom_attributes: CustomAttributesTable;
  push_rules: PushRulesTable;
  events: EventsTable;
  event_dates_unordered: EventDatesUnorderedTable;
  author_event_dates_unordered: AuthorEventsMarkTable;
  author_event_gaps: AuthorEventsMarkTable;
  deploy_tokens: DeployTokensTable;
  feed_tokens: FeedTokensTable;
  application_settings: ApplicationSettingsTable;
  features: FeaturesTable;
  protected_branches: ProtectedBranchesTable;
  protected_branch_access_levels: ProtectedBranchAccessLevelsTable;
  protected_tags: ProtectedTagsTable;
  protected_tag_access_levels: ProtectedTagAccessLevelsTable;
  feature_actors: FeatureActorsTable;
  scim_identities: ScimIdentitiesTable;
  scim_tokens: ScimTokensTable;
  web_hooks: WebHooksTable;
  web_hook_logs: WebHookLogsTable;
  jobs: JobsTable;
  job_payloads: JobPayloadsTable;
  pipeline_triggers: PipelineTriggersTable;
  ci_variables: CiVariablesTable;
  pipelines: PipelinesTable;
  pipeline_jobs: PipelineJobsTable;
  iteration_cadences: IterationCadencesTable;
  iterations: IterationsTable;
  labels: LabelsTable;
  label_links: LabelLinksTable;
  milestones: MilestonesTable;
  issues: IssuesTable;
  issue_assignees: IssueAssigneesTable;
  merge_requests: MergeRequestsTable;
  merge_request_assignees: MergeRequestAssigneesTable;
  merge_request_reviewers: MergeRequestReviewersTable;
  notes: NotesTable;
  resource_state_events: ResourceStateEventsTable;
  resource_milestone_events: ResourceMilestoneEventsTable;
  resource_weight_events: ResourceWeightEventsTable;
  resource_iteration_events: ResourceIterationEventsTable;
  merge_train_cars: MergeTrainCarsTable;
  train_locks: TrainLocksTable;
  merge_request_context_commits: MergeRequestContextCommitsTable;
  security_reports: SecurityReportsTable;
  vulnerabilities: VulnerabilitiesTable;
  vulnerability_state_transitions: VulnerabilityStateTransitionsTable;
  dependencies: DependenciesTable;
  security_dashboard_projects: SecurityDashboardProjectsTable;
  snippets: SnippetsTable;
  snippet_files: SnippetFilesTable;
  award_emoji: AwardEmojiTable;
  issue_links: IssueLinksTable;
  epics: EpicsTable;
  exports: ExportsTable;
  export_projects: ExportProjectsTable;
  commit_notes: CommitNotesTable;
  stored_files: StoredFilesTable;
  stored_file_chunks: StoredFileChunksTable;
  group_exports: GroupExportsTable;
  boards: BoardsTable;
  board_lists: BoardListsTable;
  badges: BadgesTable;
  import_source_users: ImportSourceUsersTable;
  import_placeholder_references: ImportPlaceholderReferencesTable;
  import_placeholder_memberships: ImportPlaceholderMembershipsTable;
  error_tracking_settings: ErrorTrackingSettingsTable;
  error_tracking_client_keys: ErrorTrackingClientKeysTable;
  error_tracking_errors: ErrorTrackingErrorsTable;
  error_tracking_error_events: ErrorTrackingErrorEventsTable;
  error_tracking_error_users: ErrorTrackingErrorUsersTable;
  error_tracking_error_hours: ErrorTrackingErrorHoursTable;
  error_tracking_session_hours: ErrorTrackingSessionHoursTable;
  container_registry_protection_rules: ContainerRegistryProtectionRulesTable;
  container_repositories: ContainerRepositoriesTable;
  virtual_registries: VirtualRegistriesTable;
  virtual_registry_upstreams: VirtualRegistryUpstreamsTable;
  virtual_registry_registry_upstreams: VirtualRegistryRegistryUpstreamsTable;
  virtual_registry_cache_entries: VirtualRegistryCacheEntriesTable;
  merge_request_approvals: MergeRequestApprovalsTable;
  invitations: InvitationsTable;
}

/** A group's export in the platform's archive (migration 040): one per group, replaced by the next. */
export interface GroupExportsTable {
  id: Generated<number>;
  group_id: number;
  author_id: number | null;
  status: 'scheduled' | 'started' | 'finished' | 'failed';
  error: string | null;
  file_key: string | null;
  file_size: number | null;
  expires_at: string;
  finished_at: string | null;
  created_at: string;
  updated_at: string;
}
export type GroupExportRow = Selectable<GroupExportsTable>;

/** An issue board of a group, with just what the platform's archive carries (migration 040). */
export interface BoardsTable {
  id: Generated<number>;
  group_id: number;
  name: string;
  hide_backlog_list: Generated<Bool>;
  hide_closed_list: Generated<Bool>;
  created_at: string;
  updated_at: string;
}
export interface BoardListsTable {
  id: Generated<number>;
  board_id: number;
  /** backlog, closed, label (milestone, assignee and iteration lists are not kept). */
  list_type: string;
  position: number | null;
  label_id: number | null;
  created_at: string;
  updated_at: string;
}
export interface BadgesTable {
  id: Generated<number>;
  group_id: number;
  name: string | null;
  link_url: string;
  image_url: string;
  created_at: string;
  updated_at: string;
}

export type SourceUserStatus = 'pending_reassignment' | 'reassignment_in_progress' | 'completed';
/** A placeholder user of an import (migration 041). */
export interface ImportSourceUsersTable {
  id: Generated<number>;
  namespace_id: number;
  source_hostname: string;
  import_type: string;
  source_user_identifier: string;
  source_name: string | null;
  source_username: string | null;
  status: Generated<SourceUserStatus>;
  reassign_to_user_id: number | null;
  created_at: string;
  updated_at: string;
}
export type ImportSourceUserRow = Selectable<ImportSourceUsersTable>;
export interface ImportPlaceholderReferencesTable {
  id: Generated<number>;
  source_user_id: number;
  model: 'Epic';
  record_id: number;
  attribute: 'author_id' | 'closed_by_id';
}
export interface ImportPlaceholderMembershipsTable {
  id: Generated<number>;
  source_user_id: number;
  group_id: number;
  access_level: number;
  expires_at: string | null;
}

export type UserRow = Selectable<UsersTable>;
export type FeatureRow = Selectable<FeaturesTable>;
export type GroupRow = Selectable<GroupsTable>;
export type ProjectRow = Selectable<ProjectsTable>;
export type MemberRow = Selectable<MembersTable>;
export type TokenRow = Selectable<PersonalAccessTokensTable>;
export type NewGroup = Insertable<GroupsTable>;
export type GroupPatch = Updateable<GroupsTable>;
export type NewProject = Insertable<ProjectsTable>;
export type PushRuleRow = Selectable<PushRulesTable>;
export type EventRow = Selectable<EventsTable>;
export type DeployTokenRow = Selectable<DeployTokensTable>;
export type FeedTokenRow = Selectable<FeedTokensTable>;
export type ScimIdentityRow = Selectable<ScimIdentitiesTable>;
export type WebHookRow = Selectable<WebHooksTable>;
export type WebHookLogRow = Selectable<WebHookLogsTable>;
export type JobRow = Selectable<JobsTable>;
export type PipelineTriggerRow = Selectable<PipelineTriggersTable>;
export type PipelineRow = Selectable<PipelinesTable>;
export type PipelineJobRow = Selectable<PipelineJobsTable>;
export type SecurityReportRow = Selectable<SecurityReportsTable>;
export type VulnerabilityRow = Selectable<VulnerabilitiesTable>;
export type VulnerabilityTransitionRow = Selectable<VulnerabilityStateTransitionsTable>;
export type DependencyRow = Selectable<DependenciesTable>;
export type ProtectedBranchRow = Selectable<ProtectedBranchesTable>;
export type ProtectedBranchAccessLevelRow = Selectable<ProtectedBranchAccessLevelsTable>;
export type ProtectedTagRow = Selectable<ProtectedTagsTable>;
export type ProtectedTagAccessLevelRow = Selectable<ProtectedTagAccessLevelsTable>;

/** Integrated error tracking (migration 042): a project's setting, its client keys, its errors and their events. */
export interface ErrorTrackingSettingsTable {
  project_id: number;
  active: Bool;
  integrated: Bool;
  updated_at: string;
}
export interface ErrorTrackingClientKeysTable {
  id: Generated<number>;
  project_id: number;
  public_key: string;
  active: Generated<Bool>;
  created_at: string;
}
export interface ErrorTrackingErrorsTable {
  id: Generated<number>;
  project_id: number;
  /** sha256 of what groups events (the SDK's fingerprint, else type, message and top frames). */
  fingerprint: string;
  /** The exception's type (or the level of a message event). */
  name: string;
  description: string;
  /** The culprit: the transaction, else the top frame's function and file. */
  actor: string;
  platform: string | null;
  status: 'unresolved' | 'resolved' | 'ignored';
  events_count: Generated<number>;
  users_count: Generated<number>;
  first_seen_at: string;
  last_seen_at: string;
  /** The first event's frames (JSON), in the order the SDK sent them; the latest are its latest event's. */
  stack_trace: string;
  /** The issue created from this error, if any. */
  issue_id: Generated<number | null>;
}
export interface ErrorTrackingErrorEventsTable {
  id: Generated<number>;
  error_id: number;
  event_id: string;
  description: string;
  level: string | null;
  environment: string | null;
  platform: string | null;
  user_identity: string | null;
  occurred_at: string;
  /** What is kept of the event (JSON): its frames and its user. */
  payload: string;
}
export interface ErrorTrackingErrorUsersTable {
  error_id: number;
  identity: string;
}
export interface ErrorTrackingErrorHoursTable {
  error_id: number;
  /** Unix seconds of the hour's start. */
  hour: number;
  count: number;
}
export interface ErrorTrackingSessionHoursTable {
  project_id: number;
  hour: number;
  status: string;
  count: number;
}
export type ErrorTrackingSettingRow = Selectable<ErrorTrackingSettingsTable>;
export type ErrorTrackingClientKeyRow = Selectable<ErrorTrackingClientKeysTable>;
export type ErrorTrackingErrorRow = Selectable<ErrorTrackingErrorsTable>;
export type ErrorTrackingErrorEventRow = Selectable<ErrorTrackingErrorEventsTable>;

/** Container repository protection rules (migration 043): a project's path pattern and the least roles that push to and delete from it. */
export interface ContainerRegistryProtectionRulesTable {
  id: Generated<number>;
  project_id: number;
  /** Lower case, starting with the project's full path; `*` stands for any run of characters. */
  repository_path_pattern: string;
  /** 40 Maintainer, 50 Owner, 60 administrator; null: no rule for pushes. */
  minimum_access_level_for_push: number | null;
  minimum_access_level_for_delete: number | null;
  created_at: string;
  updated_at: string;
}
export type ContainerRegistryProtectionRuleRow = Selectable<ContainerRegistryProtectionRulesTable>;

/** A project's container repository (migration 043), recorded when the token service first grants a push to it. */
export interface ContainerRepositoriesTable {
  id: Generated<number>;
  project_id: number;
  /** The path below the project's full path ('' for the project's own repository), lower case. */
  name: string;
  created_at: string;
}
export type ContainerRepositoryRow = Selectable<ContainerRepositoriesTable>;

/** A top-level group's Maven virtual registry (migration 044). */
export interface VirtualRegistriesTable {
  id: Generated<number>;
  group_id: number;
  name: string;
  description: string | null;
  created_at: string;
  updated_at: string;
}
export type VirtualRegistryRow = Selectable<VirtualRegistriesTable>;

/** An upstream Maven repository of a top-level group (migration 044), used by one or several of its registries. */
export interface VirtualRegistryUpstreamsTable {
  id: Generated<number>;
  group_id: number;
  url: string;
  name: string;
  description: string | null;
  username: string | null;
  /** Sealed by the vault; null when the upstream is reached anonymously. */
  encrypted_password: string | null;
  cache_validity_hours: Generated<number>;
  metadata_cache_validity_hours: Generated<number>;
  created_at: string;
  updated_at: string;
}
export type VirtualRegistryUpstreamRow = Selectable<VirtualRegistryUpstreamsTable>;

/** An upstream's place in a registry (migration 044): the registry asks its upstreams by position, from 1. */
export interface VirtualRegistryRegistryUpstreamsTable {
  id: Generated<number>;
  registry_id: number;
  upstream_id: number;
  position: number;
}
export type VirtualRegistryRegistryUpstreamRow = Selectable<VirtualRegistryRegistryUpstreamsTable>;

/** A file an upstream served, cached (migration 044): its bytes are the file store's `file_key`. */
export interface VirtualRegistryCacheEntriesTable {
  id: Generated<number>;
  upstream_id: number;
  relative_path: string;
  file_key: string;
  /** A string on PostgreSQL (bigint): read with Number(). */
  size: number;
  content_type: string;
  file_sha1: string;
  file_md5: string;
  upstream_etag: string | null;
  /** When the upstream last gave or confirmed the file: the cache validity counts from it. */
  upstream_checked_at: string;
  created_at: string;
  updated_at: string;
}
export type VirtualRegistryCacheEntryRow = Selectable<VirtualRegistryCacheEntriesTable>;

/** A pending invitation by email to a group or project (migration 046); becomes a member row when a user with the email is created. */
export interface InvitationsTable {
  id: Generated<number>;
  source_type: SourceType;
  source_id: number;
  /** Lower-cased. */
  invite_email: string;
  /** The digest of the token mailed to the address; the token itself is kept nowhere. */
  token_digest: string;
  access_level: number;
  expires_at: string | null;
  created_by_id: number | null;
  created_at: string;
  updated_at: string;
}
export type InvitationRow = Selectable<InvitationsTable>;
