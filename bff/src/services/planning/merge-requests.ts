import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { Db } from '../../db/index.ts';
import type { Database, LabelRow, MergeRequestRow, MilestoneRow, UserRow } from '../../db/schema.ts';
import type { MergeRequestCreateBody, MergeRequestListQuery, MergeRequestUpdateBody } from '../../../../shared/src/merge-requests.ts';
import { conflict, notFound, unprocessable, validationFailed } from '../../util/errors.ts';
import { offsetPage, type Page, type PageRequest } from '../../db/pagination.ts';
import { compare, compareCommits } from '../git/compare.ts';
import { sharedConditions } from './work-item-filters.ts';
import { createSystemNote, deleteNotesOf } from './notes.ts';
import { resolveCommit } from '../git/branches.ts';
import { gitText } from '../git/git-run.ts';
import { nowIso } from '../../util/time.ts';
import { assigneesGiven, changeLabels, projectIdsOf, userNoteCounts, votesOf, NO_VOTES, type Votes, existingUserIds, labelsNamed, labelsOf, milestoneFor, milestonesById, nextIid, recordActivity, setLabels } from './work-items.ts';
import { recordMilestoneEvent, recordStateEvent } from './resource-state-events.ts';
import { fireMergeRequestHook, type Changes } from './work-item-hook-payloads.ts';
import type { Acting, IssueListWhere } from './issues.ts';
import { announce } from '../notifier.ts';
import { usersById } from '../access/users.ts';

/** A merge request with what its presenter shows. */
export interface MergeRequestView {
  mr: MergeRequestRow;
  author: UserRow | null;
  closedBy: UserRow | null;
  mergedBy: UserRow | null;
  assignees: UserRow[];
  reviewers: UserRow[];
  labels: LabelRow[];
  milestone: MilestoneRow | null;
  userNotesCount: number;
  votes: Readonly<Votes>;
  /** The status of the latest pipeline of the source branch at its head (null: none). */
  headPipelineStatus?: string | null;
  /** That pipeline itself (the platform's head_pipeline). */
  headPipeline?: HeadPipeline | null;
  /** On a merge train (its automatic merge): who added it; undefined when not on one. */
  trainedBy?: UserRow | null;
  /** The project lets a merge request merge only once its pipeline succeeded. */
  pipelineMustSucceed?: boolean;
}

/** The repository a merge request's branches live in (source and target: the same project here). */
export interface Repo {
  dir: string;
}

/** The merge request numbered `iid` in the project, or the platform's 404. */
export async function findMergeRequestByIid(db: Db, projectId: number, iid: number): Promise<MergeRequestRow> {
  const mr = await db.selectFrom('merge_requests').selectAll().where('project_id', '=', projectId).where('iid', '=', iid).executeTakeFirst();
  if (!mr) throw notFound('Merge Request');
  return mr;
}

/** The head of a branch, or undefined when there is no such branch. */
export const branchHead = (repo: Repo, branch: string) => resolveCommit(repo.dir, `refs/heads/${branch}`);

/** Where the source and target branches meet (diff_refs.base_sha), if they do. */
export async function mergeBase(repo: Repo, a: string, b: string): Promise<string | null> {
  try {
    return (await gitText(repo.dir, ['merge-base', a, b])).trim() || null;
  } catch {
    return null;
  }
}

/** The platform's checks of a new or retargeted merge request's branches (400 missing, 409 clash). */
export async function checkBranches(db: Db, repo: Repo, projectId: number, source: string, target: string, exceptId?: number): Promise<{ sha: string; base: string | null }> {
  const [sha, targetSha] = await Promise.all([branchHead(repo, source), branchHead(repo, target)]);
  const missing: Record<string, string[]> = {};
  if (!sha) missing.source_branch = ['does not exist'];
  if (!targetSha) missing.target_branch = ['does not exist'];
  if (!sha || !targetSha) throw validationFailed(missing);
  if (source === target) throw conflict("You can't use same project/branch for source and target");
  let q = db.selectFrom('merge_requests').select('iid').where('project_id', '=', projectId).where('source_project_id', '=', projectId).where('source_branch', '=', source).where('target_branch', '=', target).where('state', '=', 'opened');
  if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
  const other = await q.executeTakeFirst();
  if (other) throw conflict(`Another open merge request already exists for this source branch: !${other.iid}`);
  return { sha, base: await mergeBase(repo, sha, targetSha) };
}

export async function setMergeRequestUsers(trx: Db, table: 'merge_request_assignees' | 'merge_request_reviewers', mrId: number, userIds: number[]): Promise<void> {
  await trx.deleteFrom(table).where('merge_request_id', '=', mrId).execute();
  const ids = await existingUserIds(trx, userIds);
  const now = nowIso();
  if (ids.length) await trx.insertInto(table).values(ids.map((user_id) => ({ merge_request_id: mrId, user_id, created_at: now }))).execute();
}

const DRAFT_TITLE = /^\s*(\[draft\]|\(draft\)|draft:|draft\s-\s|draft\s|\[wip\]|wip:|wip\s)/i;
/** A title that starts with Draft: (or the platform's other spellings) marks a draft. */
export const isDraftTitle = (title: string) => DRAFT_TITLE.test(title);

/**
 * A new merge request between two existing branches of the project: numbered, with labels,
 * assignees, reviewers and milestone; its "opened" activity and webhook in the same transaction.
 */
export async function createMergeRequest(db: Db, repo: Repo, acting: Acting, body: MergeRequestCreateBody): Promise<MergeRequestRow> {
  if (body.target_project_id !== undefined && body.target_project_id !== acting.project.id) throw notFound('Project');
  const { sha, base } = await checkBranches(db, repo, acting.project.id, body.source_branch, body.target_branch);
  return db.transaction().execute(async (trx) => {
    const milestone = await milestoneFor(trx, acting, body.milestone_id);
    const iid = await nextIid(trx, 'merge_requests', acting.project.id);
    const now = nowIso();
    const mr = await trx
      .insertInto('merge_requests')
      .values({
        project_id: acting.project.id,
        iid,
        source_project_id: acting.project.id,
        source_branch: body.source_branch,
        target_branch: body.target_branch,
        author_id: acting.user.id,
        title: body.title,
        description: body.description ?? null,
        draft: isDraftTitle(body.title) ? 1 : 0,
        milestone_id: milestone?.id ?? null,
        sha,
        base_sha: base,
        merge_commit_sha: null,
        squash_commit_sha: null,
        squash: body.squash ? 1 : 0,
        force_remove_source_branch: body.remove_source_branch ? 1 : 0,
        merge_user_id: null,
        merged_at: null,
        closed_at: null,
        closed_by_id: null,
        merge_status: 'can_be_merged',
        discussion_locked: null,
        updated_by_id: null,
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const assignees = assigneesGiven(body);
    if (assignees?.length) await setMergeRequestUsers(trx, 'merge_request_assignees', mr.id, assignees);
    if (body.reviewer_ids?.length) await setMergeRequestUsers(trx, 'merge_request_reviewers', mr.id, body.reviewer_ids);
    if (body.labels?.length) await setLabels(trx, 'MergeRequest', mr.id, (await labelsNamed(trx, acting, body.labels)).map((l) => l.id));
    if (milestone) await recordMilestoneEvent(trx, acting.user, { merge_request_id: mr.id }, milestone.id, 'add', mr.state);
    await recordActivity(trx, { projectId: acting.project.id }, acting.user, 'opened', { type: 'MergeRequest', id: mr.id });
    await fireMergeRequestHook(trx, acting, mr, 'open', {});
    return mr;
  });
}

/** Everything the presenters show of these merge requests, read in a few queries. */
export async function mergeRequestViews(db: Db, mrs: MergeRequestRow[]): Promise<MergeRequestView[]> {
  if (!mrs.length) return [];
  const ids = mrs.map((m) => m.id);
  const [assigneeRows, reviewerRows, labels, milestones, noteCounts, votes, cars] = await Promise.all([
    db.selectFrom('merge_request_assignees').select(['merge_request_id', 'user_id']).where('merge_request_id', 'in', ids).orderBy('created_at').execute(),
    db.selectFrom('merge_request_reviewers').select(['merge_request_id', 'user_id']).where('merge_request_id', 'in', ids).orderBy('created_at').execute(),
    labelsOf(db, 'MergeRequest', ids),
    milestonesById(db, mrs.map((m) => m.milestone_id)),
    userNoteCounts(db, 'MergeRequest', ids),
    votesOf(db, 'MergeRequest', ids),
    db.selectFrom('merge_train_cars').select(['merge_request_id', 'user_id']).where('active_merge_request_id', 'in', ids).execute(),
  ]);
  const onTrain = new Map(cars.map((c) => [c.merge_request_id, c.user_id]));
  const users = await usersById(db, [...mrs.flatMap((m) => [m.author_id, m.closed_by_id, m.merge_user_id]), ...assigneeRows.map((a) => a.user_id), ...reviewerRows.map((r) => r.user_id), ...onTrain.values()]);
  const ci = await pipelineStates(db, mrs);
  const user = (id: number | null) => (id === null ? null : (users.get(id) ?? null));
  return mrs.map((mr) => ({
    mr,
    author: user(mr.author_id),
    closedBy: user(mr.closed_by_id),
    mergedBy: user(mr.merge_user_id),
    assignees: assigneeRows.filter((a) => a.merge_request_id === mr.id).map((a) => users.get(a.user_id)!).filter(Boolean),
    reviewers: reviewerRows.filter((a) => a.merge_request_id === mr.id).map((a) => users.get(a.user_id)!).filter(Boolean),
    labels: labels.get(mr.id) ?? [],
    milestone: mr.milestone_id === null ? null : (milestones.get(mr.milestone_id) ?? null),
    userNotesCount: noteCounts.get(mr.id) ?? 0,
    votes: votes.get(mr.id) ?? NO_VOTES,
    headPipelineStatus: ci.heads.get(mr.id)?.status ?? null,
    headPipeline: ci.heads.get(mr.id) ?? null,
    trainedBy: onTrain.has(mr.id) ? user(onTrain.get(mr.id) ?? null) : undefined,
    pipelineMustSucceed: ci.strict.has(mr.project_id),
  }));
}

/** The latest pipeline of a merge request's source branch at its head sha. */
export interface HeadPipeline {
  id: number;
  iid: number;
  project_id: number;
  sha: string;
  ref: string;
  status: string;
  source: string;
  created_at: string;
  updated_at: string;
}

/**
 * What the mergeability of merge requests reads of CI: their head pipelines (of merged and closed
 * ones too, which keep the sha they last had), and the projects that require them to pass.
 */
async function pipelineStates(db: Db, mrs: MergeRequestRow[]): Promise<{ heads: Map<number, HeadPipeline>; strict: Set<number> }> {
  const withSha = mrs.filter((m) => m.sha);
  const heads = new Map<number, HeadPipeline>();
  if (!withSha.length) return { heads, strict: new Set() };
  const projectIds = [...new Set(withSha.map((m) => m.project_id))];
  const [pipelines, projects] = await Promise.all([
    db
      .selectFrom('pipelines')
      .select(['id', 'iid', 'project_id', 'ref', 'sha', 'status', 'source', 'created_at', 'updated_at'])
      .where('project_id', 'in', projectIds)
      .where('sha', 'in', [...new Set(withSha.map((m) => m.sha!))])
      .orderBy('id', 'desc')
      .execute(),
    db.selectFrom('projects').select('id').where('id', 'in', projectIds).where('only_allow_merge_if_pipeline_succeeds', '=', 1).execute(),
  ]);
  for (const m of withSha) {
    const latest = pipelines.find((p) => p.project_id === m.project_id && p.sha === m.sha && p.ref === m.source_branch);
    if (latest) heads.set(m.id, latest);
  }
  return { heads, strict: new Set(projects.map((p) => p.id)) };
}

export const mergeRequestView = async (db: Db, mr: MergeRequestRow): Promise<MergeRequestView> => (await mergeRequestViews(db, [mr]))[0];

/** An opened merge request follows its source branch: its sha and merge base as the repository has them now. */
export async function refreshHead(db: Db, repo: Repo, mr: MergeRequestRow): Promise<MergeRequestRow> {
  if (mr.state !== 'opened') return mr;
  const [sha, target] = await Promise.all([branchHead(repo, mr.source_branch), branchHead(repo, mr.target_branch)]);
  if (!sha || !target) return mr;
  const base = await mergeBase(repo, sha, target);
  if (sha === mr.sha && base === mr.base_sha) return mr;
  return db.updateTable('merge_requests').set({ sha, base_sha: base }).where('id', '=', mr.id).returningAll().executeTakeFirstOrThrow();
}

const endsOfMr = (mr: MergeRequestRow) => [mr.base_sha ?? `refs/heads/${mr.target_branch}`, mr.sha ?? `refs/heads/${mr.source_branch}`] as const;

/** What the merge request brings: its commits (oldest first) and its diffs from the merge base, within the diff limits. */
export function changesOf(repo: Repo, mr: MergeRequestRow) {
  const [from, to] = endsOfMr(mr);
  return compare(repo.dir, from, to, mr.base_sha !== null);
}

/** The merge request's commits, oldest first, without reading its diffs. */
export function commitsOf(repo: Repo, mr: MergeRequestRow) {
  const [from, to] = endsOfMr(mr);
  return compareCommits(repo.dir, from, to);
}

export type MergeRequestListWhere = IssueListWhere;

export function listMergeRequests(db: Db, where: MergeRequestListWhere, me: number | null, q: MergeRequestListQuery, page: PageRequest): Promise<Page<MergeRequestRow>> {
  let query = db.selectFrom('merge_requests').selectAll('merge_requests');
  query = query.where('merge_requests.project_id', 'in', projectIdsOf(db, where));
  const state = q.state ?? 'all';
  if (state !== 'all') query = query.where('merge_requests.state', '=', state);
  if (q.source_branch) query = query.where('merge_requests.source_branch', '=', q.source_branch);
  if (q.target_branch) query = query.where('merge_requests.target_branch', '=', q.target_branch);
  const draft = q.draft ?? (q.wip === undefined ? undefined : q.wip === 'yes');
  if (draft !== undefined) query = query.where('merge_requests.draft', '=', draft ? 1 : 0);
  if (q.reviewer_id !== undefined || q.reviewer_username !== undefined) {
    const r = String(q.reviewer_id ?? '').toLowerCase();
    const reviewed = (cond: Expression<SqlBool> | null) => (eb: ExpressionBuilder<Database, 'merge_requests'>) =>
      eb.exists(sql`(SELECT 1 FROM merge_request_reviewers r WHERE r.merge_request_id = merge_requests.id${cond === null ? sql`` : sql` AND ${cond}`})`);
    if (r === 'none') query = query.where((eb) => eb.not(reviewed(null)(eb)));
    else if (r === 'any') query = query.where(reviewed(null));
    else if (q.reviewer_id !== undefined) query = query.where(reviewed(sql<boolean>`r.user_id = ${Number(q.reviewer_id)}`));
    else query = query.where(reviewed(sql<boolean>`r.user_id IN (SELECT id FROM users WHERE lower(username) = ${q.reviewer_username!.toLowerCase()})`));
  }
  query = query.where(sharedConditions('merge_requests', q, me));
  const dir = q.sort ?? 'desc';
  const order = q.order_by === 'updated_at' || q.order_by === 'title' || q.order_by === 'merged_at' ? q.order_by : 'created_at';
  return offsetPage(db, query.orderBy(`merge_requests.${order}`, dir).orderBy('merge_requests.id', dir), page);
}

/**
 * Changes a merge request as PUT asks: fields, target branch (the branch checks again), labels,
 * assignees, reviewers, milestone (resource events), and close/reopen (a state event each);
 * one "update" webhook with the changes, and "close"/"reopen" ones for the state.
 */
export async function updateMergeRequest(db: Db, repo: Repo, acting: Acting, mr: MergeRequestRow, body: MergeRequestUpdateBody): Promise<MergeRequestRow> {
  if (mr.state === 'merged' && (body.state_event || body.target_branch)) throw unprocessable('Cannot change a merged merge request');
  const reopening = body.state_event === 'reopen' && mr.state === 'closed';
  const target = body.target_branch ?? mr.target_branch;
  let heads: { sha: string; base: string | null } | undefined;
  if (body.target_branch !== undefined || reopening) heads = await checkBranches(db, repo, mr.project_id, mr.source_branch, target, mr.id);
  return db.transaction().execute(async (trx) => {
    const changes: Changes = {};
    const patch: Partial<Record<keyof MergeRequestRow, unknown>> = {};
    const set = <K extends keyof MergeRequestRow>(key: K, value: MergeRequestRow[K] | undefined) => {
      if (value === undefined || value === mr[key]) return;
      patch[key] = value;
      changes[key] = { previous: mr[key], current: value };
    };
    set('title', body.title);
    if (body.title !== undefined) set('draft', isDraftTitle(body.title) ? 1 : 0);
    if (body.description !== undefined) set('description', body.description);
    set('target_branch', body.target_branch);
    if (heads) {
      set('sha', heads.sha);
      set('base_sha', heads.base);
    }
    if (body.squash !== undefined) set('squash', body.squash ? 1 : 0);
    if (body.remove_source_branch !== undefined) set('force_remove_source_branch', body.remove_source_branch ? 1 : 0);
    if (body.discussion_locked !== undefined) set('discussion_locked', body.discussion_locked ? 1 : 0);
    if (body.milestone_id !== undefined) set('milestone_id', (await milestoneFor(trx, acting, body.milestone_id))?.id ?? null);
    const now = nowIso();
    let updated = mr;
    if (Object.keys(patch).length) {
      updated = await trx.updateTable('merge_requests').set({ ...(patch as object), updated_by_id: acting.user.id, updated_at: now }).where('id', '=', mr.id).returningAll().executeTakeFirstOrThrow();
    }
    if ('milestone_id' in patch) {
      if (mr.milestone_id !== null) await recordMilestoneEvent(trx, acting.user, { merge_request_id: mr.id }, mr.milestone_id, 'remove', mr.state);
      if (updated.milestone_id !== null) await recordMilestoneEvent(trx, acting.user, { merge_request_id: mr.id }, updated.milestone_id, 'add', mr.state);
    }
    const labelChange = await changeLabels(trx, acting, 'MergeRequest', mr.id, body);
    if (labelChange) changes.labels = labelChange;
    for (const [key, table, ids] of [
      ['assignees', 'merge_request_assignees', assigneesGiven(body)],
      ['reviewers', 'merge_request_reviewers', body.reviewer_ids],
    ] as const) {
      if (ids === undefined) continue;
      const read = async () => (await trx.selectFrom(table).select('user_id').where('merge_request_id', '=', mr.id).execute()).map((a) => a.user_id);
      const before = await read();
      await setMergeRequestUsers(trx, table, mr.id, ids);
      const after = await read();
      if (before.join() !== after.join()) changes[key] = { previous: before, current: after };
    }
    if (Object.keys(changes).length) {
      if (!Object.keys(patch).length) updated = await trx.updateTable('merge_requests').set({ updated_by_id: acting.user.id, updated_at: now }).where('id', '=', mr.id).returningAll().executeTakeFirstOrThrow();
      changes.updated_at = { previous: mr.updated_at, current: updated.updated_at };
      await recordActivity(trx, { projectId: mr.project_id }, acting.user, 'updated', { type: 'MergeRequest', id: mr.id });
      await fireMergeRequestHook(trx, acting, updated, 'update', changes);
    }
    if (body.state_event) updated = await moveMergeRequestState(trx, acting, updated, body.state_event === 'close' ? 'closed' : 'opened');
    return updated;
  });
}

/** Closes or reopens a merge request (nothing when it already is so), with its state event, activity, system note and webhook. */
export async function moveMergeRequestState(trx: Db, acting: Acting, mr: MergeRequestRow, to: 'opened' | 'closed'): Promise<MergeRequestRow> {
  if (mr.state === to || mr.state === 'merged') return mr;
  const now = nowIso();
  const columns = to === 'closed' ? { state: to, closed_at: now, closed_by_id: acting.user.id } : { state: to, closed_at: null, closed_by_id: null };
  let moved = await trx.updateTable('merge_requests').set({ ...columns, updated_at: now }).where('id', '=', mr.id).returningAll().executeTakeFirstOrThrow();
  if (to === 'closed') {
    await announce('mergeRequestClosed', { trx, project: acting.project, mergeRequest: moved });
    // A listener may have changed it (auto-merge is aborted by a close).
    moved = await trx.selectFrom('merge_requests').selectAll().where('id', '=', mr.id).executeTakeFirstOrThrow();
  }
  const action = to === 'closed' ? 'closed' : 'reopened';
  await recordStateEvent(trx, acting.user, { merge_request_id: mr.id }, action);
  await recordActivity(trx, { projectId: mr.project_id }, acting.user, action, { type: 'MergeRequest', id: mr.id });
  await createSystemNote(trx, { type: 'MergeRequest', id: mr.id, projectId: mr.project_id }, acting.user, action);
  await fireMergeRequestHook(trx, acting, moved, to === 'closed' ? 'close' : 'reopen', { state_id: { previous: mr.state === 'closed' ? 2 : 1, current: to === 'closed' ? 2 : 1 } });
  return moved;
}

/** Deletes a merge request with its notes and label links. */
export async function deleteMergeRequest(db: Db, mr: MergeRequestRow): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await deleteNotesOf(trx, { type: 'MergeRequest', id: mr.id });
    await trx.deleteFrom('label_links').where('target_type', '=', 'MergeRequest').where('target_id', '=', mr.id).execute();
    await trx.deleteFrom('merge_requests').where('id', '=', mr.id).execute();
  });
}
