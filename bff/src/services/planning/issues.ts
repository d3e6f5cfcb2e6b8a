import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { Db } from '../../db/index.ts';
import type { Database, IssueRow, LabelRow, MilestoneRow, UserRow } from '../../db/schema.ts';
import type { IssueCreateBody, IssueListQuery, IssueUpdateBody } from '../../../../shared/src/issues.ts';
import { offsetPage, type Page, type PageRequest } from '../../db/pagination.ts';
import { addDays, today } from '../../util/time.ts';
import { sharedConditions } from './work-item-filters.ts';
import { createSystemNote, deleteNotesOf } from './notes.ts';
import { notFound } from '../../util/errors.ts';
import { nowIso } from '../../util/time.ts';
import { assigneesGiven, changeLabels, projectIdsOf, userNoteCounts, votesOf, NO_VOTES, type Votes, type ListWhere, existingUserIds, labelsNamed, labelsOf, milestoneFor, milestonesById, nextIid, recordActivity, setLabels, type ProjectScope } from './work-items.ts';
import { recordMilestoneEvent, recordStateEvent, recordWeightEvent } from './resource-state-events.ts';
import { recordIterationEvents } from './resource-iteration-events.ts';
import { iterationFor, iterationsById, type IterationWithGroup } from './project-iterations.ts';
import { ITERATION_STATES } from '../../../../shared/src/iterations.ts';
import { fireIssueHook, type Changes } from './work-item-hook-payloads.ts';
import { confidentialIssueVisible, readableProjectIds } from '../../policies/readable.ts';
import type { Actor } from '../../auth/actor.ts';
import { usersById } from '../access/users.ts';

/** An issue with what its presenter shows. */
export interface IssueView {
  issue: IssueRow;
  author: UserRow | null;
  closedBy: UserRow | null;
  assignees: UserRow[];
  labels: LabelRow[];
  milestone: MilestoneRow | null;
  iteration: IterationWithGroup | null;
  userNotesCount: number;
  votes: Readonly<Votes>;
}

/** Who did it, and where (hooks and activity need the project, its group and the base URL). */
export interface Acting extends ProjectScope {
  user: UserRow;
  baseUrl: string;
}

/** The issue numbered `iid` in the project, or the platform's 404. */
export async function findIssueByIid(db: Db, projectId: number, iid: number): Promise<IssueRow> {
  const issue = await db.selectFrom('issues').selectAll().where('project_id', '=', projectId).where('iid', '=', iid).executeTakeFirst();
  if (!issue) throw notFound('Issue');
  return issue;
}

export async function setAssignees(trx: Db, issueId: number, userIds: number[]): Promise<void> {
  await trx.deleteFrom('issue_assignees').where('issue_id', '=', issueId).execute();
  const ids = await existingUserIds(trx, userIds);
  if (ids.length) await trx.insertInto('issue_assignees').values(ids.map((user_id) => ({ issue_id: issueId, user_id }))).execute();
}

/** Everything the presenters show of these issues, read in a few queries. */
export async function issueViews(db: Db, issues: IssueRow[]): Promise<IssueView[]> {
  if (!issues.length) return [];
  const ids = issues.map((i) => i.id);
  const [assigneeRows, labels, milestones, iterations, noteCounts, votes] = await Promise.all([
    db.selectFrom('issue_assignees').select(['issue_id', 'user_id']).where('issue_id', 'in', ids).execute(),
    labelsOf(db, 'Issue', ids),
    milestonesById(db, issues.map((i) => i.milestone_id)),
    iterationsById(db, issues.map((i) => i.iteration_id)),
    userNoteCounts(db, 'Issue', ids),
    votesOf(db, 'Issue', ids),
  ]);
  const users = await usersById(db, [...issues.flatMap((i) => [i.author_id, i.closed_by_id]), ...assigneeRows.map((a) => a.user_id)]);
  return issues.map((issue) => ({
    issue,
    author: issue.author_id === null ? null : (users.get(issue.author_id) ?? null),
    closedBy: issue.closed_by_id === null ? null : (users.get(issue.closed_by_id) ?? null),
    assignees: assigneeRows.filter((a) => a.issue_id === issue.id).map((a) => users.get(a.user_id)!).filter(Boolean),
    labels: labels.get(issue.id) ?? [],
    milestone: issue.milestone_id === null ? null : (milestones.get(issue.milestone_id) ?? null),
    iteration: issue.iteration_id === null ? null : (iterations.get(issue.iteration_id) ?? null),
    userNotesCount: noteCounts.get(issue.id) ?? 0,
    votes: votes.get(issue.id) ?? NO_VOTES,
  }));
}

export const issueView = async (db: Db, issue: IssueRow): Promise<IssueView> => (await issueViews(db, [issue]))[0];

/**
 * A new issue, numbered in its project, with its labels (named ones the project lacks are
 * made), assignees and milestone; its "opened" activity, milestone and weight events and its
 * webhook in the same transaction. Callers check the permission.
 */
export async function createIssue(db: Db, acting: Acting, body: IssueCreateBody): Promise<IssueRow> {
  return db.transaction().execute(async (trx) => {
    const milestone = await milestoneFor(trx, acting, body.milestone_id);
    const iteration = await iterationFor(trx, acting, body.iteration_id);
    const iid = await nextIid(trx, 'issues', acting.project.id);
    const now = nowIso();
    const createdAt = body.created_at ? new Date(body.created_at).toISOString() : now;
    const issue = await trx
      .insertInto('issues')
      .values({
        project_id: acting.project.id,
        iid,
        author_id: acting.user.id,
        title: body.title,
        description: body.description ?? null,
        confidential: body.confidential ? 1 : 0,
        milestone_id: milestone?.id ?? null,
        weight: body.weight ?? null,
        due_date: body.due_date ?? null,
        closed_at: null,
        closed_by_id: null,
        epic_id: body.epic_id ?? null,
        iteration_id: iteration?.id ?? null,
        issue_type: body.issue_type ?? 'issue',
        discussion_locked: body.discussion_locked === undefined ? null : body.discussion_locked ? 1 : 0,
        updated_by_id: null,
        created_at: createdAt,
        updated_at: createdAt,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const assignees = assigneesGiven(body);
    if (assignees?.length) await setAssignees(trx, issue.id, assignees);
    if (body.labels?.length) await setLabels(trx, 'Issue', issue.id, (await labelsNamed(trx, acting, body.labels)).map((l) => l.id));
    if (milestone) await recordMilestoneEvent(trx, acting.user, { issue_id: issue.id }, milestone.id, 'add', issue.state);
    if (issue.weight !== null) await recordWeightEvent(trx, acting.user, issue.id, issue.weight);
    if (iteration) await recordIterationEvents(trx, acting.user, [issue.id], iteration.id, 'add');
    await recordActivity(trx, { projectId: acting.project.id }, acting.user, 'opened', { type: 'Issue', id: issue.id });
    await fireIssueHook(trx, acting, issue, 'open', {});
    return issue;
  });
}

/** Where a list looks: one project, or every project of a group tree the caller may see. */
export type IssueListWhere = ListWhere;

/**
 * Who lists issues, and whether they read confidential ones (policies' read_confidential):
 * `true` or `false` where that is known for every project listed, `'by project'` where it is
 * decided project by project (a group's list). Otherwise confidential issues show only to
 * their author and assignees (the issue rule, services/readable.ts).
 */
export interface IssueViewer {
  actor: Actor;
  readsConfidential: boolean | 'by project';
}

/** Issues matching the platform's filters, newest first by default. */
export function listIssues(db: Db, where: IssueListWhere, viewer: IssueViewer, q: IssueListQuery, page: PageRequest): Promise<Page<IssueRow>> {
  let query = db.selectFrom('issues').selectAll('issues');
  query = query.where('issues.project_id', 'in', projectIdsOf(db, where));
  const state = q.state ?? 'all';
  if (state !== 'all') query = query.where('issues.state', '=', state);
  if (q.confidential !== undefined) query = query.where('issues.confidential', '=', q.confidential ? 1 : 0);
  if (q.issue_type) query = query.where('issues.issue_type', '=', q.issue_type);
  if (q.weight !== undefined) {
    const w = String(q.weight).toLowerCase();
    query = w === 'none' ? query.where('issues.weight', 'is', null) : w === 'any' ? query.where('issues.weight', 'is not', null) : query.where('issues.weight', '=', Number(q.weight));
  }
  if (q.due_date) query = query.where((eb) => dueDateCondition(eb, q.due_date!));
  if (q.iteration_id !== undefined) {
    const it = String(q.iteration_id).toLowerCase();
    if (it === 'none') query = query.where('issues.iteration_id', 'is', null);
    else if (it === 'any') query = query.where('issues.iteration_id', 'is not', null);
    else if (it === 'current') query = query.where('issues.iteration_id', 'in', db.selectFrom('iterations').select('id').where('state', '=', ITERATION_STATES.current));
    else query = query.where('issues.iteration_id', '=', Number(q.iteration_id));
  }
  if (q.iteration_title !== undefined) query = query.where('issues.iteration_id', 'in', db.selectFrom('iterations').select('id').where('title', '=', q.iteration_title));
  const { actor, readsConfidential } = viewer;
  if (readsConfidential !== true) {
    query = query.where((eb) =>
      confidentialIssueVisible(eb, actor, readsConfidential === 'by project' ? eb('issues.project_id', 'in', readableProjectIds(db, actor, 'read_confidential')) : sql<boolean>`1 = 0`),
    );
  }
  query = query.where(sharedConditions('issues', q, actor.user?.id ?? null));
  const dir = q.sort ?? 'desc';
  const order = ISSUE_ORDER[q.order_by ?? 'created_at'] ?? 'created_at';
  // Nulls (no due date, no weight) last whichever the direction, as on the platform.
  const ordered = order === 'due_date' || order === 'weight' ? query.orderBy(sql`${sql.ref(`issues.${order}`)} IS NULL`).orderBy(`issues.${order}`, dir) : query.orderBy(`issues.${order}`, dir);
  return offsetPage(db, ordered.orderBy('issues.id', dir), page);
}

const ISSUE_ORDER: Record<string, 'created_at' | 'updated_at' | 'title' | 'due_date' | 'weight'> = {
  created_at: 'created_at',
  updated_at: 'updated_at',
  title: 'title',
  due_date: 'due_date',
  weight: 'weight',
  milestone_due: 'due_date',
};

function dueDateCondition(eb: ExpressionBuilder<Database, 'issues'>, when: NonNullable<IssueListQuery['due_date']>): Expression<SqlBool> {
  const t = today();
  switch (when) {
    case '0':
      return eb('issues.due_date', 'is', null);
    case 'any':
      return eb('issues.due_date', 'is not', null);
    case 'today':
      return eb('issues.due_date', '=', t);
    case 'tomorrow':
      return eb('issues.due_date', '=', addDays(1));
    case 'overdue':
      return eb('issues.due_date', '<', t);
    case 'week':
      return eb.and([eb('issues.due_date', '>=', t), eb('issues.due_date', '<=', addDays(7))]);
    case 'month':
      return eb.and([eb('issues.due_date', '>=', t), eb('issues.due_date', '<=', addDays(30))]);
    default:
      return eb.and([eb('issues.due_date', '>=', addDays(-14)), eb('issues.due_date', '<=', addDays(60))]);
  }
}

/** Changes a state event makes: closed_at/closed_by on close, cleared on reopen. */
const stateColumns = (state: 'opened' | 'closed', by: { id: number } | null, now: string) =>
  state === 'closed' ? { state, closed_at: now, closed_by_id: by?.id ?? null } : { state, closed_at: null, closed_by_id: null };

/**
 * Closes or reopens an issue (nothing when it is already so): the state event (with the commit
 * or merge request that did it), the activity, a system note and the webhook, in `trx`.
 */
export async function moveIssueState(trx: Db, acting: Acting, issue: IssueRow, to: 'opened' | 'closed', source: { commit?: string; mergeRequestId?: number } = {}): Promise<IssueRow> {
  if (issue.state === to) return issue;
  const now = nowIso();
  const moved = await trx.updateTable('issues').set({ ...stateColumns(to, acting.user, now), updated_at: now }).where('id', '=', issue.id).returningAll().executeTakeFirstOrThrow();
  const action = to === 'closed' ? 'closed' : 'reopened';
  await recordStateEvent(trx, acting.user, { issue_id: issue.id }, action, source);
  await recordActivity(trx, { projectId: issue.project_id }, acting.user, action, { type: 'Issue', id: issue.id });
  await createSystemNote(trx, { type: 'Issue', id: issue.id, projectId: issue.project_id }, acting.user, source.commit ? `closed via commit ${source.commit}` : action);
  await fireIssueHook(trx, acting, moved, to === 'closed' ? 'close' : 'reopen', { state_id: { previous: issue.state === 'closed' ? 2 : 1, current: to === 'closed' ? 2 : 1 }, closed_at: { previous: issue.closed_at, current: moved.closed_at } });
  return moved;
}

/**
 * Changes an issue as PUT asks: fields, labels (replace, add, remove), assignees, milestone
 * and weight (each change a resource event), and the state; one "update" webhook with the
 * changes (the state move fires its own). `triage`: the caller may set the triage fields.
 */
export async function updateIssue(db: Db, acting: Acting, issue: IssueRow, body: IssueUpdateBody, triage: boolean): Promise<IssueRow> {
  return db.transaction().execute(async (trx) => {
    const changes: Changes = {};
    const patch: Partial<Record<keyof IssueRow, unknown>> = {};
    const set = <K extends keyof IssueRow>(key: K, value: IssueRow[K] | undefined) => {
      if (value === undefined || value === issue[key]) return;
      patch[key] = value;
      changes[key] = { previous: issue[key], current: value };
    };
    set('title', body.title);
    if (body.description !== undefined) set('description', body.description);
    if (body.confidential !== undefined) set('confidential', body.confidential ? 1 : 0);
    if (body.discussion_locked !== undefined) set('discussion_locked', body.discussion_locked ? 1 : 0);
    if (body.issue_type !== undefined) set('issue_type', body.issue_type);
    if (triage) {
      if (body.due_date !== undefined) set('due_date', body.due_date);
      if (body.weight !== undefined) set('weight', body.weight);
      if (body.epic_id !== undefined) set('epic_id', body.epic_id);
      if (body.milestone_id !== undefined) set('milestone_id', (await milestoneFor(trx, acting, body.milestone_id))?.id ?? null);
      if (body.iteration_id !== undefined) set('iteration_id', (await iterationFor(trx, acting, body.iteration_id))?.id ?? null);
    }
    const now = nowIso();
    let updated = issue;
    const touched = Object.keys(patch).length > 0;
    if (touched) {
      updated = await trx
        .updateTable('issues')
        .set({ ...(patch as object), updated_by_id: acting.user.id, updated_at: body.updated_at ? new Date(body.updated_at).toISOString() : now })
        .where('id', '=', issue.id)
        .returningAll()
        .executeTakeFirstOrThrow();
    }
    if ('milestone_id' in patch) {
      if (issue.milestone_id !== null) await recordMilestoneEvent(trx, acting.user, { issue_id: issue.id }, issue.milestone_id, 'remove', issue.state);
      if (updated.milestone_id !== null) await recordMilestoneEvent(trx, acting.user, { issue_id: issue.id }, updated.milestone_id, 'add', issue.state);
    }
    if ('weight' in patch) await recordWeightEvent(trx, acting.user, issue.id, updated.weight);
    if ('iteration_id' in patch) {
      if (issue.iteration_id !== null) await recordIterationEvents(trx, acting.user, [issue.id], issue.iteration_id, 'remove');
      if (updated.iteration_id !== null) await recordIterationEvents(trx, acting.user, [issue.id], updated.iteration_id, 'add');
    }
    if (triage) {
      const labelChange = await changeLabels(trx, acting, 'Issue', issue.id, body);
      if (labelChange) changes.labels = labelChange;
      const assignees = assigneesGiven(body);
      if (assignees !== undefined) {
        const before = (await trx.selectFrom('issue_assignees').select('user_id').where('issue_id', '=', issue.id).execute()).map((a) => a.user_id);
        await setAssignees(trx, issue.id, assignees);
        const after = (await trx.selectFrom('issue_assignees').select('user_id').where('issue_id', '=', issue.id).execute()).map((a) => a.user_id);
        if (before.join() !== after.join()) changes.assignees = { previous: before, current: after };
      }
    }
    if ((changes.labels || changes.assignees) && !touched) {
      updated = await trx.updateTable('issues').set({ updated_by_id: acting.user.id, updated_at: now }).where('id', '=', issue.id).returningAll().executeTakeFirstOrThrow();
    }
    if (Object.keys(changes).length) {
      changes.updated_at = { previous: issue.updated_at, current: updated.updated_at };
      await recordActivity(trx, { projectId: issue.project_id }, acting.user, 'updated', { type: 'Issue', id: issue.id });
      await fireIssueHook(trx, acting, updated, 'update', changes);
    }
    if (body.state_event) updated = await moveIssueState(trx, acting, updated, body.state_event === 'close' ? 'closed' : 'opened');
    return updated;
  });
}

/** Deletes an issue with its notes and label links (events and assignees go by foreign key). */
export async function deleteIssue(db: Db, issue: IssueRow): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await deleteNotesOf(trx, { type: 'Issue', id: issue.id });
    await trx.deleteFrom('label_links').where('target_type', '=', 'Issue').where('target_id', '=', issue.id).execute();
    await trx.deleteFrom('issues').where('id', '=', issue.id).execute();
  });
}
