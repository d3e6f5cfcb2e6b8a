import { sql, type ExpressionBuilder } from 'kysely';
import type { Db } from '../../db/index.ts';
import type { Database, EpicRow, GroupRow, LabelRow, UserRow } from '../../db/schema.ts';
import { isAdmin, type Actor } from '../../auth/actor.ts';
import { offsetPage, type Page, type PageRequest } from '../../db/pagination.ts';
import { uniqueViolation } from '../../db/errors.ts';
import { ACCESS_LEVELS } from '../../../../shared/src/roles.ts';
import type { EpicCreateBody, EpicListQuery, EpicUpdateBody } from '../../../../shared/src/epics.ts';
import { nowIso } from '../../util/time.ts';
import { ancestorIds } from '../../policies/access.ts';
import { groupVisibleTo, inTrees, memberTraversals } from '../../policies/visibility.ts';
import { notFound, validationFailed } from '../../util/errors.ts';
import { DEFAULT_LABEL_COLOR, labelsOf, recordActivity, setLabels } from './work-items.ts';
import { recordStateEvent } from './resource-state-events.ts';
import { emojiName } from './emoji-reactions.ts';

/**
 * Epics of groups (the platform's deprecated epics API): numbered per group (iid), nested
 * under a parent epic of the same group or an ancestor, closed and reopened with a state event
 * and an activity event each. Confidential epics are for Reporters and up of their group.
 */

type EpicsEb = ExpressionBuilder<Database, 'epics' | 'groups'>;

/** Where the caller may see confidential epics: groups under those where they are at least a Reporter. */
async function confidentialReach(db: Db, actor: Actor): Promise<string[] | 'all'> {
  if (isAdmin(actor)) return 'all';
  return actor.user ? memberTraversals(db, actor.user.id, ACCESS_LEVELS.reporter) : [];
}

function readable(eb: EpicsEb, reach: string[] | 'all') {
  if (reach === 'all') return sql<boolean>`1 = 1`;
  return eb.or([eb('epics.confidential', '=', 0), inTrees(eb as unknown as ExpressionBuilder<Database, 'groups'>, reach)]);
}

/** The groups a list covers: the group, its descendants (default) and its ancestors (asked for), those the caller may read. */
async function groupsOfList(db: Db, actor: Actor, group: GroupRow, q: EpicListQuery): Promise<number[]> {
  const memberOf = actor.user && !isAdmin(actor) ? await memberTraversals(db, actor.user.id) : [];
  const rows = await db
    .selectFrom('groups')
    .select('id')
    .where((eb) =>
      eb.or([
        eb('groups.id', '=', group.id),
        ...(q.include_descendant_groups ?? true ? [eb('groups.traversal', 'like', `${group.traversal}_%`)] : []),
        ...(q.include_ancestor_groups ? [eb('groups.id', 'in', [0, ...ancestorIds(group)])] : []),
      ]),
    )
    .where((eb) => groupVisibleTo(eb, actor, memberOf))
    .execute();
  return rows.map((r) => r.id);
}

const authorByName = (eb: ExpressionBuilder<Database, 'epics'>, username: string) =>
  eb.exists(eb.selectFrom('users as a').select(sql`1`.as('one')).whereRef('a.id', '=', 'epics.author_id').where(sql<boolean>`lower(a.username) = ${username.toLowerCase()}`));

/** Whether the user reacted to the epic: `None` (not at all), `Any`, or with the emoji named (an alias counts as its emoji). */
function myReaction(eb: ExpressionBuilder<Database, 'epics'>, userId: number, which: string) {
  const mine = eb.selectFrom('award_emoji as ae').select('ae.id').where('ae.awardable_type', '=', 'Epic').whereRef('ae.awardable_id', '=', 'epics.id').where('ae.user_id', '=', userId);
  const lower = which.toLowerCase();
  if (lower === 'none') return eb.not(eb.exists(mine));
  if (lower === 'any') return eb.exists(mine);
  return eb.exists(mine.where('ae.name', '=', emojiName(which) ?? which));
}

export async function listEpics(db: Db, actor: Actor, group: GroupRow, q: EpicListQuery, page: PageRequest): Promise<Page<EpicRow>> {
  const groupIds = await groupsOfList(db, actor, group, q);
  const reach = await confidentialReach(db, actor);
  let query = db
    .selectFrom('epics')
    .innerJoin('groups', 'groups.id', 'epics.group_id')
    .selectAll('epics')
    .where('epics.group_id', 'in', [0, ...groupIds])
    .where((eb) => readable(eb, reach));
  if (q.state && q.state !== 'all') query = query.where('epics.state', '=', q.state);
  if (q.author_id !== undefined) query = query.where('epics.author_id', '=', q.author_id);
  if (q.author_username !== undefined) query = query.where((eb) => authorByName(eb, q.author_username!));
  if (q.not?.author_id !== undefined) query = query.where((eb) => eb.or([eb('epics.author_id', '!=', q.not!.author_id!), eb('epics.author_id', 'is', null)]));
  if (q.not?.author_username !== undefined) query = query.where((eb) => eb.not(authorByName(eb, q.not!.author_username!)));
  // As on the platform, a filter on the caller's own reactions applies only to a signed-in caller.
  if (q.my_reaction_emoji && actor.user) query = query.where((eb) => myReaction(eb, actor.user!.id, q.my_reaction_emoji!));
  if (q.search) {
    const like = `%${q.search.toLowerCase()}%`;
    query = query.where((eb) => eb.or([eb(eb.fn('lower', ['epics.title']), 'like', like), eb(eb.fn('lower', ['epics.description']), 'like', like)]));
  }
  // The bounds are inclusive; stored datetimes are ISO strings in UTC, compared as such.
  if (q.created_after) query = query.where('epics.created_at', '>=', iso(q.created_after));
  if (q.created_before) query = query.where('epics.created_at', '<=', iso(q.created_before));
  if (q.updated_after) query = query.where('epics.updated_at', '>=', iso(q.updated_after));
  if (q.updated_before) query = query.where('epics.updated_at', '<=', iso(q.updated_before));
  query = labelFilters(query, q);
  const dir = q.sort ?? 'desc';
  return offsetPage(db, query.orderBy(`epics.${q.order_by ?? 'created_at'}`, dir).orderBy('epics.id', dir), page);
}

const iso = (v: string) => new Date(v).toISOString();

/** An epic carries the label by title (`labels` all of them, `not[labels]` none of them). */
const hasLabel = (eb: ExpressionBuilder<Database, 'epics'>, title: string) =>
  eb.exists(
    eb
      .selectFrom('label_links as ll')
      .innerJoin('labels as l', 'l.id', 'll.label_id')
      .select('ll.id')
      .where('ll.target_type', '=', 'Epic')
      .whereRef('ll.target_id', '=', 'epics.id')
      .where('l.title', '=', title),
  );

function labelFilters<Q extends { where: (f: (eb: ExpressionBuilder<Database, 'epics'>) => unknown) => Q }>(query: Q, q: EpicListQuery): Q {
  let out = query;
  for (const title of q.labels ?? []) out = out.where((eb) => hasLabel(eb, title));
  for (const title of q.not?.labels ?? []) out = out.where((eb) => eb.not(hasLabel(eb, title)));
  return out;
}

/** The group labels named (of the group or an ancestor, by title); a new title becomes a label of the group, as on the platform. */
async function groupLabelsNamed(trx: Db, group: GroupRow, names: string[]): Promise<LabelRow[]> {
  const titles = [...new Set(names.map((n) => n.trim()).filter(Boolean))];
  if (!titles.length) return [];
  const found = await trx.selectFrom('labels').selectAll().where('group_id', 'in', ancestorIds(group)).where('title', 'in', titles).execute();
  const out: LabelRow[] = [];
  for (const title of titles) {
    const label = found.find((l) => l.title === title && l.group_id === group.id) ?? found.find((l) => l.title === title);
    if (label) {
      out.push(label);
      continue;
    }
    const now = nowIso();
    out.push(await trx.insertInto('labels').values({ group_id: group.id, project_id: null, title, color: DEFAULT_LABEL_COLOR, description: null, priority: null, created_at: now, updated_at: now }).returningAll().executeTakeFirstOrThrow());
  }
  return out;
}

/** The labels an update leaves: `labels` replaces them, then `add_labels` and `remove_labels` apply. */
async function labelsAfter(trx: Db, group: GroupRow, epic: EpicRow, body: EpicUpdateBody): Promise<number[] | undefined> {
  if (body.labels === undefined && body.add_labels === undefined && body.remove_labels === undefined) return undefined;
  let ids = body.labels !== undefined ? (await groupLabelsNamed(trx, group, body.labels)).map((l) => l.id) : ((await labelsOf(trx, 'Epic', [epic.id])).get(epic.id) ?? []).map((l) => l.id);
  if (body.add_labels) ids = [...ids, ...(await groupLabelsNamed(trx, group, body.add_labels)).map((l) => l.id)];
  if (body.remove_labels?.length) {
    const gone = new Set((await trx.selectFrom('labels').select('id').where('group_id', 'in', ancestorIds(group)).where('title', 'in', body.remove_labels).execute()).map((l) => l.id));
    ids = ids.filter((id) => !gone.has(id));
  }
  return ids;
}

/** The epic `iid` of the group, readable by the caller, or `404 Epic Not Found`. */
export async function getEpic(db: Db, actor: Actor, group: GroupRow, iid: number): Promise<EpicRow> {
  const epic = await db.selectFrom('epics').selectAll().where('group_id', '=', group.id).where('iid', '=', iid).executeTakeFirst();
  if (!epic || !(await mayReadEpic(db, actor, group, epic))) throw notFound('Epic');
  return epic;
}

/**
 * The epic with this `id` (not iid) in the group or a group below it that the caller may read,
 * or `404 Epic Not Found`: how the platform's note and event routes of epics (`:epic_id`) find
 * theirs (its epic finder over the group, descendants included).
 */
export async function getEpicById(db: Db, actor: Actor, group: GroupRow, id: number): Promise<EpicRow> {
  const found = await db
    .selectFrom('epics')
    .innerJoin('groups', 'groups.id', 'epics.group_id')
    .selectAll('epics')
    .select('groups.traversal')
    .where('epics.id', '=', id)
    .where('groups.traversal', 'like', `${group.traversal}%`)
    .executeTakeFirst();
  if (!found) throw notFound('Epic');
  const { traversal, ...epic } = found;
  if (epic.group_id !== group.id && !(await groupReadable(db, actor, epic.group_id))) throw notFound('Epic');
  if (!(await mayReadEpic(db, actor, { ...group, traversal }, epic))) throw notFound('Epic');
  return epic;
}

/** Whether the caller may read this group (a subgroup can be more private than the group it is reached through). */
async function groupReadable(db: Db, actor: Actor, groupId: number): Promise<boolean> {
  const memberOf = actor.user && !isAdmin(actor) ? await memberTraversals(db, actor.user.id) : [];
  const row = await db.selectFrom('groups').select('id').where('id', '=', groupId).where((eb) => groupVisibleTo(eb, actor, memberOf)).executeTakeFirst();
  return row !== undefined;
}

async function mayReadEpic(db: Db, actor: Actor, group: GroupRow, epic: EpicRow): Promise<boolean> {
  if (!epic.confidential) return true;
  const reach = await confidentialReach(db, actor);
  return reach === 'all' || reach.some((t) => group.traversal.startsWith(t));
}

/** A parent must be an epic the caller can read, of the epic's group or one of its ancestors, and not the epic itself or one below it. */
async function checkedParent(db: Db, actor: Actor, group: GroupRow, parentId: number | null | undefined, self?: EpicRow): Promise<EpicRow | null | undefined> {
  if (parentId === undefined || parentId === null) return parentId;
  const parent = await db.selectFrom('epics').innerJoin('groups', 'groups.id', 'epics.group_id').selectAll('epics').select('groups.traversal').where('epics.id', '=', parentId).executeTakeFirst();
  const invalid = () => validationFailed({ parent_id: ['is invalid: the parent must be an epic of this group or an ancestor group'] });
  if (!parent || !ancestorIds(group).includes(parent.group_id)) throw invalid();
  const { traversal: parentTraversal, ...parentEpic } = parent;
  if (!(await mayReadEpic(db, actor, { ...group, traversal: parentTraversal }, parentEpic))) throw invalid();
  if (self) {
    // Walk up from the parent: meeting the epic itself would make a cycle.
    for (let at: number | null = parent.id, depth = 0; at !== null && depth < 100; depth++) {
      if (at === self.id) throw validationFailed({ parent_id: ['is invalid: an epic cannot be its own ancestor'] });
      const up: { parent_id: number | null } | undefined = await db.selectFrom('epics').select('parent_id').where('id', '=', at).executeTakeFirst();
      at = up?.parent_id ?? null;
    }
  }
  return parentEpic;
}

function checkDates(row: { start_date_fixed: string | null; due_date_fixed: string | null }): void {
  if (row.start_date_fixed && row.due_date_fixed && row.start_date_fixed > row.due_date_fixed) {
    throw validationFailed({ due_date_fixed: ['must be on or after the start date'] });
  }
}

/**
 * Creates an epic with the group's next iid. `created_at` is taken from administrators and
 * the group's owners only (anyone else gets now).
 */
export async function createEpic(db: Db, actor: Actor & { user: UserRow }, group: GroupRow, level: number, body: EpicCreateBody): Promise<EpicRow> {
  const parent = await checkedParent(db, actor, group, body.parent_id);
  const now = nowIso();
  const createdAt = body.created_at && (isAdmin(actor) || level >= ACCESS_LEVELS.owner) ? new Date(body.created_at).toISOString() : now;
  const values = {
    group_id: group.id,
    author_id: actor.user.id,
    title: body.title,
    description: body.description ?? null,
    confidential: body.confidential ? 1 : 0,
    parent_id: parent?.id ?? null,
    ...(body.color ? { color: body.color } : {}),
    start_date_fixed: body.start_date_fixed ?? null,
    start_date_is_fixed: body.start_date_is_fixed ? 1 : 0,
    due_date_fixed: body.due_date_fixed ?? null,
    due_date_is_fixed: body.due_date_is_fixed ? 1 : 0,
    created_at: createdAt,
    updated_at: createdAt,
  };
  checkDates(values);
  // Two creations at once may pick the same iid: the unique index refuses one, which tries again.
  for (let attempt = 0; ; attempt++) {
    try {
      return await db.transaction().execute(async (trx) => {
        const last = await trx.selectFrom('epics').select((eb) => eb.fn.max('iid').as('iid')).where('group_id', '=', group.id).executeTakeFirst();
        const epic = await trx.insertInto('epics').values({ ...values, iid: Number(last?.iid ?? 0) + 1 }).returningAll().executeTakeFirstOrThrow();
        if (body.labels?.length) await setLabels(trx, 'Epic', epic.id, (await groupLabelsNamed(trx, group, body.labels)).map((l) => l.id));
        await recordActivity(trx, { projectId: null, groupId: group.id }, actor.user, 'opened', { type: 'Epic', id: epic.id });
        return epic;
      });
    } catch (e) {
      if (attempt < 5 && uniqueViolation(e) !== undefined) continue;
      throw e;
    }
  }
}

/** Changes what the body names; `state_event` closes or reopens, with a state event and an activity event. */
export async function updateEpic(db: Db, actor: Actor & { user: UserRow }, group: GroupRow, epic: EpicRow, body: EpicUpdateBody): Promise<EpicRow> {
  const parent = await checkedParent(db, actor, group, body.parent_id, epic);
  const now = nowIso();
  const patch: Partial<EpicRow> = {};
  if (body.title !== undefined) patch.title = body.title;
  if (body.description !== undefined) patch.description = body.description;
  if (body.confidential !== undefined) patch.confidential = body.confidential ? 1 : 0;
  if (body.color !== undefined) patch.color = body.color;
  if (body.start_date_fixed !== undefined) patch.start_date_fixed = body.start_date_fixed;
  if (body.due_date_fixed !== undefined) patch.due_date_fixed = body.due_date_fixed;
  if (body.start_date_is_fixed !== undefined) patch.start_date_is_fixed = body.start_date_is_fixed ? 1 : 0;
  if (body.due_date_is_fixed !== undefined) patch.due_date_is_fixed = body.due_date_is_fixed ? 1 : 0;
  if (body.parent_id !== undefined) patch.parent_id = parent?.id ?? null;
  checkDates({ start_date_fixed: patch.start_date_fixed ?? epic.start_date_fixed, due_date_fixed: patch.due_date_fixed ?? epic.due_date_fixed });
  const move = body.state_event === 'close' && epic.state === 'opened' ? 'closed' : body.state_event === 'reopen' && epic.state === 'closed' ? 'opened' : undefined;
  if (move === 'closed') Object.assign(patch, { state: 'closed', closed_at: now, closed_by_id: actor.user.id });
  if (move === 'opened') Object.assign(patch, { state: 'opened', closed_at: null, closed_by_id: null });
  return db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable('epics')
      .set({ ...patch, updated_at: now })
      .where('id', '=', epic.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    const labels = await labelsAfter(trx, group, epic, body);
    if (labels) await setLabels(trx, 'Epic', epic.id, labels);
    if (move) {
      const state = move === 'closed' ? 'closed' : 'reopened';
      await recordStateEvent(trx, actor.user, { epic_id: epic.id }, state);
      await recordActivity(trx, { projectId: null, groupId: group.id }, actor.user, state, { type: 'Epic', id: epic.id });
    }
    return updated;
  });
}

/** What the presenter needs besides the epic: its group, author, parent and labels. */
export interface EpicDetails {
  epic: EpicRow;
  group: GroupRow;
  author: UserRow | null;
  parent: { id: number; iid: number; group_id: number } | null;
  labels: LabelRow[];
}

export async function detailsOf(db: Db, epics: EpicRow[]): Promise<EpicDetails[]> {
  const ids = (xs: (number | null)[]) => [0, ...new Set(xs.filter((x): x is number => x !== null))];
  const [groups, authors, parents, labels] = await Promise.all([
    db.selectFrom('groups').selectAll().where('id', 'in', ids(epics.map((e) => e.group_id))).execute(),
    db.selectFrom('users').selectAll().where('id', 'in', ids(epics.map((e) => e.author_id))).execute(),
    db.selectFrom('epics').select(['id', 'iid', 'group_id']).where('id', 'in', ids(epics.map((e) => e.parent_id))).execute(),
    labelsOf(db, 'Epic', epics.map((e) => e.id)),
  ]);
  const byId = <T extends { id: number }>(rows: T[]) => new Map(rows.map((r) => [r.id, r]));
  const [g, a, p] = [byId(groups), byId(authors), byId(parents)];
  return epics.map((epic) => ({
    epic,
    group: g.get(epic.group_id)!,
    author: epic.author_id === null ? null : (a.get(epic.author_id) ?? null),
    parent: epic.parent_id === null ? null : (p.get(epic.parent_id) ?? null),
    labels: labels.get(epic.id) ?? [],
  }));
}
