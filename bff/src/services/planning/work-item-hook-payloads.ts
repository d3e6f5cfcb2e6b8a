import crypto from 'node:crypto';
import type { Db } from '../../db/index.ts';
import type { CommitNoteRow, IssueRow, LabelRow, MergeRequestRow, NoteRow, UserRow } from '../../db/schema.ts';
import { bool, boolOrNull } from '../../util/rows.ts';
import { fireHookEvent } from '../webhooks/hook-delivery.ts';
import { projectObject } from '../webhooks/hook-payloads.ts';
import { labelsOf, type ProjectScope } from './work-items.ts';
import { usersById } from '../access/users.ts';

/**
 * Issue, merge request and note events in the platform's payload shapes, and their firing:
 * confidential issues (and every note on one, and internal notes) go to the confidential
 * flags only, as on the platform.
 */

export interface HookScope extends ProjectScope {
  user: UserRow;
  baseUrl: string;
}

const STATE_ID: Record<string, number> = { opened: 1, closed: 2, merged: 3, locked: 4 };

export const hookUser = (u: UserRow) => ({ id: u.id, name: u.name, username: u.username, avatar_url: null, email: u.email });

export function hookLabel(l: LabelRow) {
  return { id: l.id, title: l.title, color: l.color, project_id: l.project_id, created_at: l.created_at, updated_at: l.updated_at, template: false, description: l.description, type: l.project_id === null ? 'GroupLabel' : 'ProjectLabel', group_id: l.group_id };
}

const projectUrl = (s: HookScope) => `${s.baseUrl}/${s.project.path_with_namespace}`;
const repository = (s: HookScope) => {
  const p = projectObject(s.baseUrl, s.project, s.group);
  return { name: s.project.name, url: p.url, description: s.project.description, homepage: p.homepage };
};

/** What changed: `{ field: { previous, current } }`, as the platform sends it. */
export type Changes = Record<string, { previous: unknown; current: unknown }>;

async function issueAttributes(db: Db, s: HookScope, issue: IssueRow) {
  const [labels, assignees] = await Promise.all([
    labelsOf(db, 'Issue', [issue.id]).then((m) => m.get(issue.id) ?? []),
    db.selectFrom('issue_assignees').select('user_id').where('issue_id', '=', issue.id).execute(),
  ]);
  const assigneeIds = assignees.map((a) => a.user_id);
  return {
    labels,
    assigneeIds,
    attributes: {
      author_id: issue.author_id,
      closed_at: issue.closed_at,
      confidential: bool(issue.confidential),
      created_at: issue.created_at,
      description: issue.description,
      discussion_locked: boolOrNull(issue.discussion_locked),
      due_date: issue.due_date,
      id: issue.id,
      iid: issue.iid,
      last_edited_at: issue.updated_by_id === null ? null : issue.updated_at,
      last_edited_by_id: issue.updated_by_id,
      milestone_id: issue.milestone_id,
      moved_to_id: null,
      duplicated_to_id: null,
      project_id: issue.project_id,
      relative_position: null,
      state_id: STATE_ID[issue.state] ?? 1,
      time_estimate: 0,
      title: issue.title,
      updated_at: issue.updated_at,
      updated_by_id: issue.updated_by_id,
      weight: issue.weight,
      health_status: null,
      type: 'Issue',
      url: `${projectUrl(s)}/-/issues/${issue.iid}`,
      total_time_spent: 0,
      time_change: 0,
      human_total_time_spent: null,
      human_time_change: null,
      human_time_estimate: null,
      assignee_ids: assigneeIds,
      assignee_id: assigneeIds[0] ?? null,
      labels: labels.map(hookLabel),
      state: issue.state,
      severity: 'unknown',
      customer_relations_contacts: [],
    },
  };
}

export async function issuePayload(db: Db, s: HookScope, issue: IssueRow, action: string, changes: Changes) {
  const { labels, assigneeIds, attributes } = await issueAttributes(db, s, issue);
  const users = await usersById(db, assigneeIds);
  const assignees = assigneeIds.map((id) => users.get(id)).filter((u): u is UserRow => u !== undefined).map(hookUser);
  const kind = issue.confidential ? 'confidential_issue' : 'issue';
  return {
    object_kind: 'issue',
    event_type: kind,
    user: hookUser(s.user),
    project: projectObject(s.baseUrl, s.project, s.group),
    object_attributes: { ...attributes, action },
    labels: labels.map(hookLabel),
    changes,
    repository: repository(s),
    ...(assignees.length ? { assignees } : {}),
  };
}

export async function fireIssueHook(db: Db, s: HookScope, issue: IssueRow, action: string, changes: Changes): Promise<void> {
  const flag = issue.confidential ? 'confidential_issues_events' : 'issues_events';
  await fireHookEvent(db, { traversal: s.group.traversal, projectId: s.project.id }, flag, await issuePayload(db, s, issue, action, changes));
}

async function mergeRequestAttributes(db: Db, s: HookScope, mr: MergeRequestRow) {
  const [labels, assignees, reviewers] = await Promise.all([
    labelsOf(db, 'MergeRequest', [mr.id]).then((m) => m.get(mr.id) ?? []),
    db.selectFrom('merge_request_assignees').select('user_id').where('merge_request_id', '=', mr.id).execute(),
    db.selectFrom('merge_request_reviewers').select('user_id').where('merge_request_id', '=', mr.id).execute(),
  ]);
  const project = projectObject(s.baseUrl, s.project, s.group);
  const assigneeIds = assignees.map((a) => a.user_id);
  const reviewerIds = reviewers.map((r) => r.user_id);
  return {
    labels,
    assigneeIds,
    reviewerIds,
    attributes: {
      assignee_id: assigneeIds[0] ?? null,
      author_id: mr.author_id,
      created_at: mr.created_at,
      description: mr.description,
      draft: bool(mr.draft),
      head_pipeline_id: null,
      id: mr.id,
      iid: mr.iid,
      last_edited_at: mr.updated_by_id === null ? null : mr.updated_at,
      last_edited_by_id: mr.updated_by_id,
      merge_commit_sha: mr.merge_commit_sha,
      merge_error: null,
      merge_params: { force_remove_source_branch: bool(mr.force_remove_source_branch) ? '1' : '0' },
      merge_status: mr.merge_status,
      merge_user_id: mr.merge_user_id,
      merge_when_pipeline_succeeds: Boolean(mr.auto_merge_enabled),
      milestone_id: mr.milestone_id,
      source_branch: mr.source_branch,
      source_project_id: mr.source_project_id,
      state_id: STATE_ID[mr.state] ?? 1,
      target_branch: mr.target_branch,
      target_project_id: mr.project_id,
      time_estimate: 0,
      title: mr.title,
      updated_at: mr.updated_at,
      updated_by_id: mr.updated_by_id,
      prepared_at: mr.created_at,
      assignee_ids: assigneeIds,
      blocking_discussions_resolved: true,
      detailed_merge_status: mr.state === 'opened' ? (mr.draft ? 'draft_status' : 'mergeable') : 'not_open',
      first_contribution: false,
      human_time_change: null,
      human_time_estimate: null,
      human_total_time_spent: null,
      labels: labels.map(hookLabel),
      last_commit: mr.sha ? { id: mr.sha, url: `${projectUrl(s)}/-/commit/${mr.sha}` } : null,
      reviewer_ids: reviewerIds,
      source: project,
      state: mr.state,
      target: project,
      time_change: 0,
      total_time_spent: 0,
      url: `${projectUrl(s)}/-/merge_requests/${mr.iid}`,
      work_in_progress: bool(mr.draft),
    },
  };
}

export async function mergeRequestPayload(db: Db, s: HookScope, mr: MergeRequestRow, action: string, changes: Changes, extra: Record<string, unknown> = {}) {
  const { labels, assigneeIds, reviewerIds, attributes } = await mergeRequestAttributes(db, s, mr);
  const users = await usersById(db, [...assigneeIds, ...reviewerIds]);
  const pick = (ids: number[]) => ids.map((id) => users.get(id)).filter((u): u is UserRow => u !== undefined).map(hookUser);
  return {
    object_kind: 'merge_request',
    event_type: 'merge_request',
    user: hookUser(s.user),
    project: projectObject(s.baseUrl, s.project, s.group),
    object_attributes: { ...attributes, ...extra, action },
    labels: labels.map(hookLabel),
    changes,
    repository: repository(s),
    ...(assigneeIds.length ? { assignees: pick(assigneeIds) } : {}),
    ...(reviewerIds.length ? { reviewers: pick(reviewerIds) } : {}),
  };
}

/** `extra`: attributes some actions add (`oldrev` on an update that moved the source branch). */
export async function fireMergeRequestHook(db: Db, s: HookScope, mr: MergeRequestRow, action: string, changes: Changes, extra: Record<string, unknown> = {}): Promise<void> {
  await fireHookEvent(db, { traversal: s.group.traversal, projectId: s.project.id }, 'merge_requests_events', await mergeRequestPayload(db, s, mr, action, changes, extra));
}

/** A note's noteable as the note event embeds it. */
export type NoteTarget =
  | { type: 'Issue'; issue: IssueRow }
  | { type: 'MergeRequest'; mergeRequest: MergeRequestRow }
  /** A project snippet: its id and the object a snippet's events carry. */
  | { type: 'Snippet'; id: number; snippet: Record<string, unknown> };

/** Where the note's noteable is in the console (`issues/3`) and the object the event embeds for it. */
async function noteParent(db: Db, s: HookScope, target: NoteTarget): Promise<{ path: string; embedded: Record<string, unknown> }> {
  switch (target.type) {
    case 'Issue':
      return { path: `issues/${target.issue.iid}`, embedded: { issue: (await issueAttributes(db, s, target.issue)).attributes } };
    case 'MergeRequest':
      return { path: `merge_requests/${target.mergeRequest.iid}`, embedded: { merge_request: (await mergeRequestAttributes(db, s, target.mergeRequest)).attributes } };
    case 'Snippet':
      return { path: `snippets/${target.id}`, embedded: { snippet: target.snippet } };
  }
}

/** The fields of a note event's `object_attributes` that depend on the note and its noteable. */
interface NoteEventAttributes {
  id: number;
  author_id: number | null;
  project_id: number | null;
  note: string;
  noteable_type: string;
  noteable_id: number | null;
  commit_id: string | null;
  discussion_id: string;
  type: string | null;
  system: boolean;
  internal: boolean;
  resolved_at: string | null;
  resolved_by_id: number | null;
  created_at: string;
  updated_at: string;
  updated_by_id: number | null;
  url: string;
  action: 'create' | 'update';
}

/**
 * A note event, whatever the note is on: the envelope and `object_attributes` in the platform's
 * field order, `confidential` for its event type (an internal note, or any note on a
 * confidential issue), and the noteable embedded beside it.
 */
function noteEvent(s: HookScope, a: NoteEventAttributes, confidential: boolean, embedded: Record<string, unknown>) {
  return {
    object_kind: 'note',
    event_type: confidential ? 'confidential_note' : 'note',
    user: hookUser(s.user),
    project_id: s.project.id,
    project: projectObject(s.baseUrl, s.project, s.group),
    object_attributes: {
      attachment: null,
      author_id: a.author_id,
      change_position: null,
      commit_id: a.commit_id,
      created_at: a.created_at,
      discussion_id: a.discussion_id,
      id: a.id,
      line_code: null,
      note: a.note,
      noteable_id: a.noteable_id,
      noteable_type: a.noteable_type,
      original_position: null,
      position: null,
      project_id: a.project_id,
      resolved_at: a.resolved_at,
      resolved_by_id: a.resolved_by_id,
      resolved_by_push: null,
      st_diff: null,
      system: a.system,
      type: a.type,
      updated_at: a.updated_at,
      updated_by_id: a.updated_by_id,
      description: a.note,
      internal: a.internal,
      confidential: a.internal,
      url: a.url,
      action: a.action,
    },
    repository: repository(s),
    ...embedded,
  };
}

export async function notePayload(db: Db, s: HookScope, note: NoteRow, target: NoteTarget, action: 'create' | 'update') {
  const { path, embedded } = await noteParent(db, s, target);
  const attributes: NoteEventAttributes = {
    id: note.id,
    author_id: note.author_id,
    project_id: note.project_id,
    note: note.body,
    noteable_type: note.noteable_type,
    noteable_id: note.noteable_id,
    commit_id: null,
    discussion_id: discussionId(note),
    type: null,
    system: bool(note.system),
    internal: bool(note.internal),
    resolved_at: note.resolved_at,
    resolved_by_id: note.resolved_by_id,
    created_at: note.created_at,
    updated_at: note.updated_at,
    updated_by_id: note.updated_by_id,
    url: `${projectUrl(s)}/-/${path}#note_${note.id}`,
    action,
  };
  return noteEvent(s, attributes, note.internal === 1 || (target.type === 'Issue' && target.issue.confidential === 1), embedded);
}

/** A stable 40-hex discussion id for a note that starts its own discussion. */
export const discussionId = (note: Pick<NoteRow, 'id' | 'noteable_type' | 'noteable_id'>) =>
  crypto.createHash('sha1').update(`${note.noteable_type}:${note.noteable_id}:${note.id}`).digest('hex');

/** The commit a comment is on, as a note event embeds it. */
export interface CommentedCommit {
  sha: string;
  message: string;
  authorName: string;
  authorEmail: string;
  /** ISO 8601. */
  committedAt: string;
}

/**
 * A comment on a commit as the platform's note event carries it: `noteable_type` Commit, the
 * commit's id in `commit_id`, no `noteable_id`, and the commit beside the note.
 */
export function commitNotePayload(s: HookScope, note: CommitNoteRow, commit: CommentedCommit) {
  const commitUrl = `${projectUrl(s)}/-/commit/${commit.sha}`;
  const attributes: NoteEventAttributes = {
    id: note.id,
    author_id: note.author_id,
    project_id: note.project_id,
    note: note.note,
    noteable_type: 'Commit',
    noteable_id: null,
    commit_id: commit.sha,
    discussion_id: crypto.createHash('sha1').update(`Commit:${commit.sha}:${note.id}`).digest('hex'),
    type: note.path === null ? null : 'DiffNote',
    system: false,
    internal: false,
    resolved_at: null,
    resolved_by_id: null,
    created_at: note.created_at,
    updated_at: note.created_at,
    updated_by_id: null,
    url: `${commitUrl}#note_${note.id}`,
    action: 'create',
  };
  return noteEvent(s, attributes, false, {
    commit: {
      id: commit.sha,
      message: commit.message,
      title: commit.message.split('\n', 1)[0],
      timestamp: commit.committedAt,
      url: commitUrl,
      author: { name: commit.authorName, email: commit.authorEmail },
    },
  });
}

/** A comment on a commit, to the project's and its groups' hooks with note events. */
export async function fireCommitNoteHook(db: Db, s: HookScope, note: CommitNoteRow, commit: CommentedCommit): Promise<void> {
  await fireHookEvent(db, { traversal: s.group.traversal, projectId: s.project.id }, 'note_events', commitNotePayload(s, note, commit));
}

export async function fireNoteHook(db: Db, s: HookScope, note: NoteRow, target: NoteTarget, action: 'create' | 'update'): Promise<void> {
  const payload = await notePayload(db, s, note, target, action);
  const flag = payload.event_type === 'confidential_note' ? 'confidential_note_events' : 'note_events';
  await fireHookEvent(db, { traversal: s.group.traversal, projectId: s.project.id }, flag, payload);
}
