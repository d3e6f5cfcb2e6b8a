import type { Db } from '../db/index.ts';
import type { IssueRow, LabelRow, MilestoneRow, UserRow } from '../db/schema.ts';
import type { IssueCreateBody } from '../../../shared/src/issues.ts';
import { notFound } from './errors.ts';
import { nowIso } from '../util/time.ts';
import { assigneesGiven, existingUserIds, labelsNamed, labelsOf, milestoneFor, milestonesById, nextIid, recordActivity, setLabels, usersById, type ProjectScope } from './work-items.ts';
import { recordMilestoneEvent, recordWeightEvent } from './resource-state-events.ts';
import { fireIssueHook } from './work-item-hook-payloads.ts';

/** An issue with what its presenter shows. */
export interface IssueView {
  issue: IssueRow;
  author: UserRow | null;
  closedBy: UserRow | null;
  assignees: UserRow[];
  labels: LabelRow[];
  milestone: MilestoneRow | null;
  userNotesCount: number;
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
  const [assigneeRows, labels, milestones, counts] = await Promise.all([
    db.selectFrom('issue_assignees').select(['issue_id', 'user_id']).where('issue_id', 'in', ids).execute(),
    labelsOf(db, 'Issue', ids),
    milestonesById(db, issues.map((i) => i.milestone_id)),
    db
      .selectFrom('notes')
      .select(['noteable_id'])
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('noteable_type', '=', 'Issue')
      .where('noteable_id', 'in', ids)
      .where('system', '=', 0)
      .groupBy('noteable_id')
      .execute(),
  ]);
  const users = await usersById(db, [...issues.flatMap((i) => [i.author_id, i.closed_by_id]), ...assigneeRows.map((a) => a.user_id)]);
  const noteCounts = new Map(counts.map((c) => [c.noteable_id, Number(c.n)]));
  return issues.map((issue) => ({
    issue,
    author: issue.author_id === null ? null : (users.get(issue.author_id) ?? null),
    closedBy: issue.closed_by_id === null ? null : (users.get(issue.closed_by_id) ?? null),
    assignees: assigneeRows.filter((a) => a.issue_id === issue.id).map((a) => users.get(a.user_id)!).filter(Boolean),
    labels: labels.get(issue.id) ?? [],
    milestone: issue.milestone_id === null ? null : (milestones.get(issue.milestone_id) ?? null),
    userNotesCount: noteCounts.get(issue.id) ?? 0,
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
        iteration_id: null,
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
    await recordActivity(trx, { projectId: acting.project.id }, acting.user, 'opened', { type: 'Issue', id: issue.id });
    await fireIssueHook(trx, acting, issue, 'open', {});
    return issue;
  });
}
