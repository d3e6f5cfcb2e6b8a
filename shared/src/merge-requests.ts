import { z } from './errors.ts';
import { boolParam, intListParam, intParam, paginationQuery } from './params.ts';
import { workItemUser, labelNames, milestoneBrief, references, timeStats, workItemFilters } from './issues.ts';
import { pipelineSummary } from './pipelines.ts';
import { diff } from './compare.ts';

export const MERGE_REQUEST_STATES = ['opened', 'closed', 'merged', 'locked'] as const;

/** The platform's mergeability answers (detailed_merge_status). */
export const DETAILED_MERGE_STATUSES = [
  'mergeable',
  'checking',
  'unchecked',
  'broken_status',
  'conflict',
  'draft_status',
  'discussions_not_resolved',
  'not_open',
  'need_rebase',
  'ci_must_pass',
  'ci_still_running',
  'commits_status',
] as const;

/** A merge request in lists (the platform's MergeRequestBasic plus the list fields). */
export const mergeRequestBasic = z.object({
  id: z.number().int(),
  iid: z.number().int(),
  project_id: z.number().int(),
  title: z.string(),
  description: z.string().nullable(),
  state: z.enum(MERGE_REQUEST_STATES),
  created_at: z.string(),
  updated_at: z.string(),
  merged_by: workItemUser.nullable(),
  merge_user: workItemUser.nullable(),
  merged_at: z.string().nullable(),
  closed_by: workItemUser.nullable(),
  closed_at: z.string().nullable(),
  target_branch: z.string(),
  source_branch: z.string(),
  user_notes_count: z.number().int(),
  upvotes: z.number().int(),
  downvotes: z.number().int(),
  author: workItemUser,
  assignees: z.array(workItemUser),
  assignee: workItemUser.nullable(),
  reviewers: z.array(workItemUser),
  source_project_id: z.number().int().nullable(),
  target_project_id: z.number().int(),
  labels: z.array(z.string()),
  draft: z.boolean(),
  work_in_progress: z.boolean(),
  milestone: milestoneBrief.nullable(),
  merge_when_pipeline_succeeds: z.boolean(),
  merge_status: z.string(),
  detailed_merge_status: z.enum(DETAILED_MERGE_STATUSES),
  sha: z.string().nullable(),
  merge_commit_sha: z.string().nullable(),
  squash_commit_sha: z.string().nullable(),
  discussion_locked: z.boolean().nullable(),
  should_remove_source_branch: z.boolean().nullable(),
  force_remove_source_branch: z.boolean(),
  prepared_at: z.string().nullable(),
  reference: z.string(),
  references,
  web_url: z.string(),
  time_stats: timeStats,
  squash: z.boolean(),
  squash_on_merge: z.boolean(),
  task_completion_status: z.object({ count: z.number().int(), completed_count: z.number().int() }),
  has_conflicts: z.boolean(),
  blocking_discussions_resolved: z.boolean(),
});
export type MergeRequestBasic = z.infer<typeof mergeRequestBasic>;

export const diffRefs = z.object({ base_sha: z.string().nullable(), head_sha: z.string().nullable(), start_sha: z.string().nullable() });

/** One merge request (GET/POST/PUT …/merge_requests/:merge_request_iid). */
export const mergeRequest = mergeRequestBasic.extend({
  subscribed: z.boolean(),
  changes_count: z.string().nullable(),
  latest_build_started_at: z.string().nullable(),
  latest_build_finished_at: z.string().nullable(),
  first_deployed_to_production_at: z.string().nullable(),
  pipeline: pipelineSummary.nullable(),
  head_pipeline: pipelineSummary.nullable(),
  diff_refs: diffRefs.nullable(),
  merge_error: z.string().nullable(),
  rebase_in_progress: z.boolean(),
  diverged_commits_count: z.number().int(),
  first_contribution: z.boolean(),
  user: z.object({ can_merge: z.boolean() }),
});
export type MergeRequest = z.infer<typeof mergeRequest>;

/** One file's change, as `…/changes` and `…/diffs` list them: the compare API's diff. */
export const mergeRequestDiff = diff;

export const mergeRequestChanges = mergeRequest.extend({
  changes: z.array(mergeRequestDiff),
  overflow: z.boolean(),
});

const userIds = () => intListParam().pipe(z.array(z.number().int().min(0)).max(100));
const nullableId = () => z.union([z.null(), z.literal(''), intParam().pipe(z.number().int().min(0))]).transform((v) => (v === '' || v === 0 ? null : v));
const branch = z.string().trim().min(1).max(255);

const mergeRequestFields = {
  description: z.string().max(1_048_576).nullish(),
  assignee_id: nullableId().optional(),
  assignee_ids: userIds().optional(),
  reviewer_ids: userIds().optional(),
  labels: labelNames().optional(),
  milestone_id: nullableId().optional(),
  remove_source_branch: boolParam().optional(),
  squash: boolParam().optional(),
  allow_collaboration: boolParam().optional(),
};

export const mergeRequestCreateBody = z.object({
  source_branch: branch,
  target_branch: branch,
  title: z.string().trim().min(1).max(255),
  target_project_id: intParam().optional(),
  ...mergeRequestFields,
});
export type MergeRequestCreateBody = z.infer<typeof mergeRequestCreateBody>;

export const mergeRequestUpdateBody = z.object({
  title: z.string().trim().min(1).max(255).optional(),
  target_branch: branch.optional(),
  state_event: z.enum(['close', 'reopen']).optional(),
  add_labels: labelNames().optional(),
  remove_labels: labelNames().optional(),
  discussion_locked: boolParam().optional(),
  ...mergeRequestFields,
});
export type MergeRequestUpdateBody = z.infer<typeof mergeRequestUpdateBody>;

export const mergeRequestListQuery = paginationQuery.extend({
  ...workItemFilters,
  state: z.enum(['opened', 'closed', 'locked', 'merged', 'all']).optional(),
  order_by: z.enum(['created_at', 'updated_at', 'title', 'merged_at', 'label_priority', 'milestone_due', 'popularity', 'priority']).optional(),
  view: z.enum(['simple']).optional(),
  source_branch: z.string().max(255).optional(),
  target_branch: z.string().max(255).optional(),
  reviewer_id: z.union([z.enum(['None', 'Any', 'none', 'any']), intParam()]).optional(),
  reviewer_username: z.string().max(255).optional(),
  draft: boolParam().optional(),
  wip: z.enum(['yes', 'no']).optional(),
});
export type MergeRequestListQuery = z.infer<typeof mergeRequestListQuery>;
