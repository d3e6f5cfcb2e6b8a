import type { Db } from '../db/index.ts';
import type { LabelRow, MergeRequestRow, MilestoneRow, UserRow } from '../db/schema.ts';
import type { MergeRequestCreateBody } from '../../../shared/src/merge-requests.ts';
import { conflict, notFound, validationFailed } from './errors.ts';
import { resolveCommit } from './branches.ts';
import { gitText } from './git-run.ts';
import { nowIso } from '../util/time.ts';
import { assigneesGiven, existingUserIds, labelsNamed, labelsOf, milestoneFor, milestonesById, nextIid, recordActivity, setLabels, usersById } from './work-items.ts';
import { recordMilestoneEvent } from './resource-state-events.ts';
import { fireMergeRequestHook } from './work-item-hook-payloads.ts';
import type { Acting } from './issues.ts';

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
  const [assigneeRows, reviewerRows, labels, milestones, counts] = await Promise.all([
    db.selectFrom('merge_request_assignees').select(['merge_request_id', 'user_id']).where('merge_request_id', 'in', ids).orderBy('created_at').execute(),
    db.selectFrom('merge_request_reviewers').select(['merge_request_id', 'user_id']).where('merge_request_id', 'in', ids).orderBy('created_at').execute(),
    labelsOf(db, 'MergeRequest', ids),
    milestonesById(db, mrs.map((m) => m.milestone_id)),
    db
      .selectFrom('notes')
      .select(['noteable_id'])
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('noteable_type', '=', 'MergeRequest')
      .where('noteable_id', 'in', ids)
      .where('system', '=', 0)
      .groupBy('noteable_id')
      .execute(),
  ]);
  const users = await usersById(db, [...mrs.flatMap((m) => [m.author_id, m.closed_by_id, m.merge_user_id]), ...assigneeRows.map((a) => a.user_id), ...reviewerRows.map((r) => r.user_id)]);
  const noteCounts = new Map(counts.map((c) => [c.noteable_id, Number(c.n)]));
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
  }));
}

export const mergeRequestView = async (db: Db, mr: MergeRequestRow): Promise<MergeRequestView> => (await mergeRequestViews(db, [mr]))[0];
