/*
 * Webhook events and their names, without a schema: what the console's lists and the delivery log
 * show (hooks.ts re-exports it all, with the schemas of the API's bodies).
 */

/** Event flags of both scopes (spec part 1, "Events"). */
export const HOOK_FLAGS = [
  'push_events',
  'tag_push_events',
  'merge_requests_events',
  'repository_update_events',
  'issues_events',
  'confidential_issues_events',
  'note_events',
  'confidential_note_events',
  'pipeline_events',
  'wiki_page_events',
  'job_events',
  'deployment_events',
  'feature_flag_events',
  'releases_events',
  'milestone_events',
  'resource_access_token_events',
  // Not listed for project hooks in the spec, but the platform's project hooks carry it.
  'emoji_events',
] as const;
/** Flags only group hooks have. */
export const GROUP_ONLY_HOOK_FLAGS = ['subgroup_events', 'member_events', 'project_events'] as const;
export type HookFlag = (typeof HOOK_FLAGS)[number] | (typeof GROUP_ONLY_HOOK_FLAGS)[number];
/**
 * The flags a system hook (an administrator's, for the whole instance) has, as on the platform;
 * it receives the instance's system events (projects, groups, users created, destroyed,
 * transferred) whatever its flags.
 */
export const SYSTEM_HOOK_FLAGS = ['push_events', 'tag_push_events', 'merge_requests_events', 'repository_update_events'] as const satisfies readonly HookFlag[];
export const hookFlagsFor = (scope: 'groups' | 'projects' | 'system'): HookFlag[] =>
  scope === 'groups' ? [...HOOK_FLAGS, ...GROUP_ONLY_HOOK_FLAGS] : scope === 'system' ? [...SYSTEM_HOOK_FLAGS] : [...HOOK_FLAGS];
/** System events (project_create, user_destroy, …) are delivered under one trigger and header, as on the platform. */
export const SYSTEM_EVENTS = { trigger: 'system_hooks', header: 'System Hook' } as const;

/** What each flag subscribes to, and the name of its trigger in the delivery log and test endpoint. */
export const HOOK_EVENTS: Record<HookFlag, { label: string; trigger: string; header: string }> = {
  push_events: { label: 'Push events', trigger: 'push_hooks', header: 'Push Hook' },
  tag_push_events: { label: 'Tag push events', trigger: 'tag_push_hooks', header: 'Tag Push Hook' },
  merge_requests_events: { label: 'Merge request events', trigger: 'merge_request_hooks', header: 'Merge Request Hook' },
  repository_update_events: { label: 'Repository update events', trigger: 'repository_update_hooks', header: 'Repository Update Hook' },
  issues_events: { label: 'Issue events', trigger: 'issue_hooks', header: 'Issue Hook' },
  confidential_issues_events: { label: 'Confidential issue events', trigger: 'confidential_issue_hooks', header: 'Confidential Issue Hook' },
  note_events: { label: 'Comment events', trigger: 'note_hooks', header: 'Note Hook' },
  confidential_note_events: { label: 'Confidential comment events', trigger: 'confidential_note_hooks', header: 'Confidential Note Hook' },
  pipeline_events: { label: 'Pipeline events', trigger: 'pipeline_hooks', header: 'Pipeline Hook' },
  wiki_page_events: { label: 'Wiki page events', trigger: 'wiki_page_hooks', header: 'Wiki Page Hook' },
  job_events: { label: 'Job events', trigger: 'job_hooks', header: 'Job Hook' },
  deployment_events: { label: 'Deployment events', trigger: 'deployment_hooks', header: 'Deployment Hook' },
  feature_flag_events: { label: 'Feature flag events', trigger: 'feature_flag_hooks', header: 'Feature Flag Hook' },
  releases_events: { label: 'Release events', trigger: 'release_hooks', header: 'Release Hook' },
  milestone_events: { label: 'Milestone events', trigger: 'milestone_hooks', header: 'Milestone Hook' },
  resource_access_token_events: { label: 'Access token events', trigger: 'resource_access_token_hooks', header: 'Resource Access Token Hook' },
  subgroup_events: { label: 'Subgroup events', trigger: 'subgroup_hooks', header: 'Subgroup Hook' },
  emoji_events: { label: 'Emoji events', trigger: 'emoji_hooks', header: 'Emoji Hook' },
  member_events: { label: 'Member events', trigger: 'member_hooks', header: 'Member Hook' },
  project_events: { label: 'Project events', trigger: 'project_hooks', header: 'Project Hook' },
};

export const HOOK_STATUS_CATEGORIES = ['successful', 'client_failure', 'server_failure'] as const;
