import type { MergeRequest, MergeRequestBasic } from '../../../shared/src/merge-requests.ts';
import type { UserRow } from '../db/schema.ts';
import type { MergeRequestView } from '../services/planning/merge-requests.ts';
import type { PipelineStatus } from '../../../shared/src/pipelines.ts';
import { bool, boolOrNull } from '../util/rows.ts';
import { presentWorkItemUser, milestoneOwnerPath, NO_TIME_STATS, presentMilestoneBrief, projectWebUrl, references, taskCompletion, type WorkItemUrls } from './work-items.ts';

/** The platform's detailed_merge_status from what Gatehouse knows (no pipelines are required here). */
export function detailedMergeStatus(v: MergeRequestView): MergeRequestBasic['detailed_merge_status'] {
  const m = v.mr;
  if (m.state !== 'opened') return 'not_open';
  if (m.draft) return 'draft_status';
  if (m.merge_status === 'cannot_be_merged') return 'conflict';
  if (m.merge_status === 'unchecked' || m.merge_status === 'checking') return 'checking';
  // CI counts where the project requires it or an auto-merge waits on it, as on the platform.
  if (v.pipelineMustSucceed || bool(m.auto_merge_enabled)) {
    const status = v.headPipelineStatus ?? null;
    if (status !== null && !['success', 'failed', 'canceled', 'skipped', 'manual'].includes(status)) return 'ci_still_running';
    if (status !== 'success') return 'ci_must_pass';
  }
  return 'mergeable';
}

export function presentMergeRequestBasic(v: MergeRequestView, u: WorkItemUrls): MergeRequestBasic {
  const m = v.mr;
  const user = (x: UserRow | null) => presentWorkItemUser(x, u.baseUrl);
  const draft = bool(m.draft);
  const refs = references('!', m.iid, u);
  return {
    id: m.id,
    iid: m.iid,
    project_id: m.project_id,
    title: m.title,
    description: m.description,
    state: m.state,
    created_at: m.created_at,
    updated_at: m.updated_at,
    merged_by: v.mergedBy && m.state === 'merged' ? user(v.mergedBy) : null,
    merge_user: v.mergedBy ? user(v.mergedBy) : v.trainedBy ? user(v.trainedBy) : null,
    merged_at: m.merged_at,
    closed_by: v.closedBy ? user(v.closedBy) : null,
    closed_at: m.closed_at,
    target_branch: m.target_branch,
    source_branch: m.source_branch,
    user_notes_count: v.userNotesCount,
    upvotes: v.votes.upvotes,
    downvotes: v.votes.downvotes,
    author: user(v.author),
    assignees: v.assignees.map(user),
    assignee: v.assignees[0] ? user(v.assignees[0]) : null,
    reviewers: v.reviewers.map(user),
    source_project_id: m.source_project_id,
    target_project_id: m.project_id,
    labels: v.labels.map((l) => l.title),
    draft,
    work_in_progress: draft,
    milestone: v.milestone ? presentMilestoneBrief(v.milestone, { baseUrl: u.baseUrl, ownerPath: milestoneOwnerPath(v.milestone, u) }) : null,
    // Set by auto-merge, or by a merge train (the platform's merge train strategies are automatic merges too).
    merge_when_pipeline_succeeds: bool(m.auto_merge_enabled) || v.trainedBy !== undefined,
    merge_status: m.merge_status,
    detailed_merge_status: detailedMergeStatus(v),
    sha: m.sha,
    merge_commit_sha: m.merge_commit_sha,
    squash_commit_sha: m.squash_commit_sha,
    discussion_locked: boolOrNull(m.discussion_locked),
    should_remove_source_branch: m.force_remove_source_branch ? true : null,
    force_remove_source_branch: bool(m.force_remove_source_branch),
    prepared_at: m.created_at,
    reference: refs.short,
    references: refs,
    web_url: `${projectWebUrl(u)}/-/merge_requests/${m.iid}`,
    time_stats: NO_TIME_STATS,
    squash: bool(m.squash),
    squash_on_merge: bool(m.squash),
    task_completion_status: taskCompletion(m.description),
    has_conflicts: m.merge_status === 'cannot_be_merged',
    blocking_discussions_resolved: true,
  };
}

/** One merge request; `changesCount` and `canMerge` come from the repository and the caller. */
export function presentMergeRequest(v: MergeRequestView & { changesCount?: number | string | null; canMerge?: boolean }, u: WorkItemUrls): MergeRequest {
  const m = v.mr;
  const p = v.headPipeline;
  const pipeline = p ? { id: p.id, iid: p.iid, project_id: p.project_id, sha: p.sha, ref: p.ref, status: p.status as PipelineStatus, source: p.source, created_at: p.created_at, updated_at: p.updated_at, web_url: `${projectWebUrl(u)}/-/pipelines/${p.id}` } : null;
  return {
    ...presentMergeRequestBasic(v, u),
    subscribed: false,
    changes_count: v.changesCount === undefined || v.changesCount === null ? null : String(v.changesCount),
    latest_build_started_at: null,
    latest_build_finished_at: null,
    first_deployed_to_production_at: null,
    pipeline,
    head_pipeline: pipeline,
    diff_refs: m.sha ? { base_sha: m.base_sha, head_sha: m.sha, start_sha: m.base_sha } : null,
    merge_error: null,
    rebase_in_progress: false,
    diverged_commits_count: 0,
    first_contribution: false,
    user: { can_merge: v.canMerge ?? false },
  };
}
