import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { Db } from '../../db/index.ts';
import { isPostgres } from '../../db/dialect.ts';
import type { Database, GroupRow, LabelRow, LabelTargetType, MilestoneRow, ProjectRow } from '../../db/schema.ts';
import { ancestorIds } from '../../policies/access.ts';
import { validationFailed } from '../../util/errors.ts';
import { nowIso } from '../../util/time.ts';

/**
 * What issues, merge requests and epics share: per-project numbering, labels by name, the
 * milestone check, assignee lookup and activity records. Other areas (epics, snippets,
 * milestones) reuse these.
 */

/** A project with its namespace: where a work item lives. */
export interface ProjectScope {
  project: ProjectRow;
  group: GroupRow;
}

/** The next iid of `table` in the project (the project row is locked on PostgreSQL while it is taken). */
export async function nextIid(trx: Db, table: 'issues' | 'merge_requests', projectId: number): Promise<number> {
  if (isPostgres(trx)) await trx.selectFrom('projects').select('id').where('id', '=', projectId).forUpdate().execute();
  const last = await trx.selectFrom(table).select(sql<number>`max(iid)`.as('iid')).where('project_id', '=', projectId).executeTakeFirst();
  return Number(last?.iid ?? 0) + 1;
}

/** The platform's colour for a label made on the fly by naming it on an issue or merge request. */
export const DEFAULT_LABEL_COLOR = '#6699cc';

/** Labels a project can use: its own and those of its group and the group's ancestors. */
export function availableLabels(db: Db, scope: ProjectScope) {
  return db
    .selectFrom('labels')
    .selectAll()
    .where((eb) => eb.or([eb('project_id', '=', scope.project.id), eb('group_id', 'in', ancestorIds(scope.group))]));
}

/**
 * The labels named, by title (case-sensitive, as on the platform); a name the project cannot
 * find becomes a new project label, as the platform does.
 */
export async function labelsNamed(trx: Db, scope: ProjectScope, names: string[]): Promise<LabelRow[]> {
  if (!names.length) return [];
  const found = await availableLabels(trx, scope).where('title', 'in', names).execute();
  const out: LabelRow[] = [];
  for (const name of names) {
    // A project's own label wins over a group's of the same title.
    const label = found.find((l) => l.title === name && l.project_id !== null) ?? found.find((l) => l.title === name);
    if (label) {
      out.push(label);
      continue;
    }
    const now = nowIso();
    const created = await trx
      .insertInto('labels')
      .values({ group_id: null, project_id: scope.project.id, title: name, color: DEFAULT_LABEL_COLOR, description: null, priority: null, created_at: now, updated_at: now })
      .returningAll()
      .executeTakeFirstOrThrow();
    out.push(created);
  }
  return out;
}

/** Replaces the labels of a target with these (by id), keeping the links that stay. */
export async function setLabels(trx: Db, targetType: LabelTargetType, targetId: number, labelIds: number[]): Promise<void> {
  const wanted = [...new Set(labelIds)];
  let del = trx.deleteFrom('label_links').where('target_type', '=', targetType).where('target_id', '=', targetId);
  if (wanted.length) del = del.where('label_id', 'not in', wanted);
  await del.execute();
  const have = new Set((await trx.selectFrom('label_links').select('label_id').where('target_type', '=', targetType).where('target_id', '=', targetId).execute()).map((r) => r.label_id));
  const add = wanted.filter((id) => !have.has(id));
  if (add.length) {
    const now = nowIso();
    await trx.insertInto('label_links').values(add.map((label_id) => ({ label_id, target_type: targetType, target_id: targetId, created_at: now }))).execute();
  }
}

/** The labels of each target, ordered by title. */
export async function labelsOf(db: Db, targetType: LabelTargetType, targetIds: number[]): Promise<Map<number, LabelRow[]>> {
  const out = new Map<number, LabelRow[]>(targetIds.map((id) => [id, []]));
  if (!targetIds.length) return out;
  const rows = await db
    .selectFrom('label_links')
    .innerJoin('labels', 'labels.id', 'label_links.label_id')
    .selectAll('labels')
    .select('label_links.target_id')
    .where('label_links.target_type', '=', targetType)
    .where('label_links.target_id', 'in', targetIds)
    .orderBy('labels.title')
    .execute();
  for (const { target_id, ...label } of rows) out.get(target_id)?.push(label);
  return out;
}

/** A milestone id given for a work item must name a milestone of the project or of an ancestor group. */
export async function milestoneFor(db: Db, scope: ProjectScope, milestoneId: number | null | undefined): Promise<MilestoneRow | null> {
  if (milestoneId === null || milestoneId === undefined) return null;
  const found = await db
    .selectFrom('milestones')
    .selectAll()
    .where('id', '=', milestoneId)
    .where((eb) => eb.or([eb('project_id', '=', scope.project.id), eb('group_id', 'in', ancestorIds(scope.group))]))
    .executeTakeFirst();
  if (!found) throw validationFailed({ milestone_id: ['is invalid'] });
  return found;
}

export async function milestonesById(db: Db, ids: (number | null)[]): Promise<Map<number, MilestoneRow>> {
  const wanted = [...new Set(ids.filter((id): id is number => id !== null))];
  if (!wanted.length) return new Map();
  return new Map((await db.selectFrom('milestones').selectAll().where('id', 'in', wanted).execute()).map((m) => [m.id, m]));
}

/** Of the ids given, those of users that exist, in order, without repeats (the platform drops the others). */
export async function existingUserIds(db: Db, ids: number[]): Promise<number[]> {
  const wanted = [...new Set(ids.filter((id) => id > 0))];
  if (!wanted.length) return [];
  const found = new Set((await db.selectFrom('users').select('id').where('id', 'in', wanted).execute()).map((u) => u.id));
  return wanted.filter((id) => found.has(id));
}

/** The assignees to set from `assignee_ids` or the older single `assignee_id`, when either is given. */
export function assigneesGiven(body: { assignee_ids?: number[]; assignee_id?: number | null }): number[] | undefined {
  if (body.assignee_ids !== undefined) return body.assignee_ids;
  if (body.assignee_id !== undefined) return body.assignee_id === null ? [] : [body.assignee_id];
  return undefined;
}

export type ActivityAction = 'opened' | 'closed' | 'reopened' | 'merged' | 'commented on' | 'updated' | 'approved' | 'destroyed' | 'created';
export type ActivityTarget = 'Issue' | 'MergeRequest' | 'Note' | 'DiffNote' | 'Milestone' | 'Epic' | 'Snippet';

/** An activity record (the `events` table the events API reads), and the project's last activity. */
export async function recordActivity(
  trx: Db,
  where: { projectId: number | null; groupId?: number | null },
  author: { id: number } | null,
  action: ActivityAction,
  target: { type: ActivityTarget; id: number },
): Promise<void> {
  const now = nowIso();
  await trx
    .insertInto('events')
    .values({ project_id: where.projectId, group_id: where.groupId ?? null, author_id: author?.id ?? null, action_name: action, target_type: target.type, target_id: target.id, push_data: null, created_at: now })
    .execute();
  if (where.projectId !== null) await trx.updateTable('projects').set({ last_activity_at: now }).where('id', '=', where.projectId).execute();
}

/**
 * Applies `labels` (replace), then `add_labels` and `remove_labels` to a target; answers the
 * change as a hook's `labels` change (label objects before and after) or undefined.
 */
export async function changeLabels(
  trx: Db,
  scope: ProjectScope,
  targetType: LabelTargetType,
  targetId: number,
  body: { labels?: string[]; add_labels?: string[]; remove_labels?: string[] },
): Promise<{ previous: LabelRow[]; current: LabelRow[] } | undefined> {
  if (body.labels === undefined && body.add_labels === undefined && body.remove_labels === undefined) return undefined;
  const previous = (await labelsOf(trx, targetType, [targetId])).get(targetId) ?? [];
  let ids = body.labels !== undefined ? (await labelsNamed(trx, scope, body.labels)).map((l) => l.id) : previous.map((l) => l.id);
  if (body.add_labels?.length) ids = [...ids, ...(await labelsNamed(trx, scope, body.add_labels)).map((l) => l.id)];
  if (body.remove_labels?.length) {
    const gone = new Set(body.remove_labels);
    const titles = new Map((await availableLabels(trx, scope).where('id', 'in', ids.length ? ids : [-1]).execute()).map((l) => [l.id, l.title]));
    ids = ids.filter((id) => !gone.has(titles.get(id) ?? ''));
  }
  await setLabels(trx, targetType, targetId, ids);
  const current = (await labelsOf(trx, targetType, [targetId])).get(targetId) ?? [];
  return previous.map((l) => l.id).join() === current.map((l) => l.id).join() ? undefined : { previous, current };
}

/** Comments (not system notes) on each noteable of one type. */
export async function userNoteCounts(db: Db, type: 'Issue' | 'MergeRequest', ids: number[]): Promise<Map<number, number>> {
  if (!ids.length) return new Map();
  const rows = await db
    .selectFrom('notes')
    .select(['noteable_id'])
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('noteable_type', '=', type)
    .where('noteable_id', 'in', ids)
    .where('system', '=', 0)
    .groupBy('noteable_id')
    .execute();
  return new Map(rows.map((c) => [c.noteable_id, Number(c.n)]));
}

/** Upvotes and downvotes as the platform counts them: the `thumbsup` and `thumbsdown` reactions. */
export interface Votes {
  upvotes: number;
  downvotes: number;
}

export const NO_VOTES: Readonly<Votes> = { upvotes: 0, downvotes: 0 };

export async function votesOf(db: Db, type: 'Issue' | 'MergeRequest', ids: number[]): Promise<Map<number, Votes>> {
  const out = new Map<number, Votes>();
  if (!ids.length) return out;
  const rows = await db
    .selectFrom('award_emoji')
    .select((eb) => ['awardable_id', 'name', eb.fn.countAll<number>().as('n')])
    .where('awardable_type', '=', type)
    .where('awardable_id', 'in', ids)
    .where('name', 'in', ['thumbsup', 'thumbsdown'])
    .groupBy(['awardable_id', 'name'])
    .execute();
  for (const r of rows) {
    const v = out.get(r.awardable_id) ?? { upvotes: 0, downvotes: 0 };
    if (r.name === 'thumbsup') v.upvotes = Number(r.n);
    else v.downvotes = Number(r.n);
    out.set(r.awardable_id, v);
  }
  return out;
}

/** Where a list looks: one project, or every project of a group tree that `projects` (a visibility rule) lets through. */
export type ListWhere = { projectId: number } | { projects: (eb: ExpressionBuilder<Database, 'projects'>) => Expression<SqlBool>; traversal: string };

/** The ids of the projects a list looks in, as a subquery (or the one project). */
export function projectIdsOf(db: Db, where: ListWhere) {
  if ('projectId' in where) return [where.projectId];
  return db
    .selectFrom('projects')
    .innerJoin('groups', 'groups.id', 'projects.namespace_id')
    .select('projects.id')
    .where('groups.traversal', 'like', `${where.traversal}%`)
    .where((e) => where.projects(e as unknown as ExpressionBuilder<Database, 'projects'>));
}
