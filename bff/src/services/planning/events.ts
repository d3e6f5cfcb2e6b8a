import type { SelectQueryBuilder } from 'kysely';
import type { Db } from '../../db/index.ts';
import type { Database, EventRow, NoteRow, UserRow } from '../../db/schema.ts';
import { usersById } from '../access/users.ts';
import { isAdmin, type Actor } from '../../auth/actor.ts';
import { canProject, type ProjectReadAction, type ProjectSubject } from '../../policies/index.ts';
import { offsetPage, offsetPageOf, type Page, type PageRequest } from '../../db/pagination.ts';
import type { EventListQuery } from '../../../../shared/src/events.ts';
import { projectMember, projectVisibleTo } from '../../policies/visibility.ts';
import { EVENT_READ_ACTIONS, eventsReadable, readsAcrossProjects, readsInProject } from '../../policies/readable.ts';
import { findUser, findUserByUsername } from '../access/users.ts';
import { notFound } from '../../util/errors.ts';

/**
 * Activity events: who did what in which project, as the dashboard, a user's profile and a
 * project's activity list them. Epic events live in the same table (group_id set, no
 * project) but the API does not return them, so every list here is of project events.
 */

/** The stored action names each `action` filter value stands for. */
export const ACTION_NAMES: Record<NonNullable<EventListQuery['action']>, string[]> = {
  created: ['created', 'opened'],
  updated: ['updated'],
  closed: ['closed'],
  reopened: ['reopened'],
  pushed: ['pushed', 'pushed to', 'pushed new', 'deleted'],
  commented: ['commented on'],
  merged: ['merged', 'accepted'],
  joined: ['joined'],
  left: ['left'],
  destroyed: ['destroyed'],
  expired: ['expired'],
  approved: ['approved'],
};

/** The stored target types of each `target_type` filter value (discussion notes are not a target type). */
export const TARGET_TYPES: Record<NonNullable<EventListQuery['target_type']>, string[]> = {
  epic: ['Epic'],
  issue: ['Issue'],
  merge_request: ['MergeRequest'],
  milestone: ['Milestone'],
  note: ['Note', 'DiffNote'],
  project: ['Project'],
  snippet: ['Snippet', 'ProjectSnippet'],
  user: ['User'],
};

type EventsQuery<O = EventRow> = SelectQueryBuilder<Database, 'events', O>;

/** `before` and `after` exclude the day they name, as on the platform. */
const beforeBound = (day: string) => `${day}T00:00:00.000Z`;
const afterBound = (day: string) => `${day}T23:59:59.999Z`;

/**
 * The filters, on the filter values every project event carries (`action_key`, `target_key`:
 * migration 033 sets them from ACTION_NAMES and TARGET_TYPES), which the (author, key, id)
 * indexes of migration 034 hold in the lists' order.
 */
function filtered<O>(query: EventsQuery<O>, q: EventListQuery): EventsQuery<O> {
  let out = query;
  if (q.action) out = out.where('events.action_key', '=', q.action);
  if (q.target_type) out = out.where('events.target_key', '=', q.target_type);
  if (q.before) out = out.where('events.created_at', '<', beforeBound(q.before));
  if (q.after) out = out.where('events.created_at', '>', afterBound(q.after));
  return out;
}

const sorted = <O>(query: EventsQuery<O>, q: EventListQuery) => query.orderBy('events.id', q.sort ?? 'desc');

/**
 * A project's events the caller may see, each by the read its kind needs (services/readable.ts).
 * A caller who may do every such read here sees them all: a page is then a range of numbers
 * (see numberedRange), so page 10,000 costs what page 1 does, filtered or not.
 */
export async function listProjectEvents(db: Db, actor: Actor, subject: ProjectSubject, q: EventListQuery, page: PageRequest): Promise<Page<EventRow>> {
  const base = db.selectFrom('events').selectAll('events').where('events.project_id', '=', subject.project.id);
  const may = (read: ProjectReadAction) => canProject(actor, read, subject);
  const seesAll = EVENT_READ_ACTIONS.every(may);
  const range = seesAll ? await numberedRange(db, subject.project.id, q) : undefined;
  if (!range) return offsetPage(db, sorted(filtered(seesAll ? base : base.where(eventsReadable(actor, readsInProject(may))), q), q), page);
  const { column, key, first, last } = range;
  const total = Math.max(0, last - first + 1);
  const [lo, hi] = (q.sort ?? 'desc') === 'desc' ? [Math.max(first, last - page.offset - page.limit + 1), last - page.offset] : [first + page.offset, Math.min(last, first + page.offset + page.limit - 1)];
  let rows = base.where(`events.${column}`, '>=', lo).where(`events.${column}`, '<=', hi);
  if (key) rows = rows.where(key.column, '=', key.value);
  const items = lo > hi ? [] : await rows.orderBy(`events.${column}`, q.sort ?? 'desc').execute();
  return offsetPageOf(items, total, page);
}

/** The numbers a project's events are paged by: in the project, or among those of one filter value. */
interface NumberedRange {
  column: 'project_seq' | 'action_seq' | 'target_seq';
  key?: { column: 'events.action_key' | 'events.target_key'; value: string };
  first: number;
  last: number;
}

/**
 * The events a list shows as a range of numbers (migrations 015 and 033), found through an index
 * without reading the rows before the page; undefined when they are not one (filters combined,
 * or dates in a project whose events were not written in the order of their dates).
 * - none: 1 to the project's highest `project_seq` (events are append-only);
 * - `action` alone: 1 to the highest `action_seq` of that value, likewise `target_type`;
 * - `before` and/or `after` alone: the `project_seq` of the first event after the day `after`
 *   names to that of the last event before the day `before` names.
 */
async function numberedRange(db: Db, projectId: number, q: EventListQuery): Promise<NumberedRange | undefined> {
  const dated = Boolean(q.before || q.after);
  if ([q.action, q.target_type, dated].filter(Boolean).length > 1) return undefined;
  const highest = async (column: NumberedRange['column'], key?: NumberedRange['key']) => {
    let query = db
      .selectFrom('events')
      .select((eb) => eb.fn.max(column).as('n'))
      .where('events.project_id', '=', projectId);
    if (key) query = query.where(key.column, '=', key.value);
    return Number((await query.executeTakeFirst())?.n ?? 0);
  };
  if (q.action) {
    const key = { column: 'events.action_key', value: q.action } as const;
    return { column: 'action_seq', key, first: 1, last: await highest('action_seq', key) };
  }
  if (q.target_type) {
    const key = { column: 'events.target_key', value: q.target_type } as const;
    return { column: 'target_seq', key, first: 1, last: await highest('target_seq', key) };
  }
  if (!dated) return { column: 'project_seq', first: 1, last: await highest('project_seq') };
  const unordered = await db.selectFrom('event_dates_unordered').select('project_id').where('project_id', '=', projectId).executeTakeFirst();
  if (unordered) return undefined;
  // The ends, each one entry of the (project, date, number) index.
  const end = async (op: '>' | '<', at: string, direction: 'asc' | 'desc') => {
    const row = await db
      .selectFrom('events')
      .select('project_seq')
      .where('events.project_id', '=', projectId)
      .where('events.created_at', op, at)
      .orderBy('events.created_at', direction)
      .orderBy('events.project_seq', direction)
      .limit(1)
      .executeTakeFirst();
    return row?.project_seq ?? undefined;
  };
  const first = q.after ? await end('>', afterBound(q.after), 'asc') : 1;
  const last = q.before ? await end('<', beforeBound(q.before), 'desc') : await highest('project_seq');
  if (first === undefined || last === undefined) return { column: 'project_seq', first: 1, last: 0 };
  return { column: 'project_seq', first, last };
}

/** Across projects: each event by the read its kind needs on its own project. */
const readableTargets = (db: Db, query: EventsQuery, actor: Actor): EventsQuery => query.where(eventsReadable(actor, readsAcrossProjects(db, actor)));

/**
 * A user's events in the projects the caller may read (the caller's own events in theirs). An
 * administrator reads every one in a project: a page's ids then come from the author's partial
 * indexes alone (migration 035), offset and count included, and only its rows are read.
 */
export async function listUserEvents(db: Db, actor: Actor, user: UserRow, q: EventListQuery, page: PageRequest): Promise<Page<EventRow>> {
  if (isAdmin(actor)) {
    const ids = db.selectFrom('events').select('events.id').where('events.author_id', '=', user.id).where('events.project_id', 'is not', null);
    return (await offsetPage(db, sorted(filtered(ids, q), q), page)).mapAsync(async (found) => {
      if (!found.length) return [];
      return db
        .selectFrom('events')
        .selectAll()
        .where('id', 'in', found.map((r) => r.id))
        .orderBy('id', q.sort ?? 'desc')
        .execute();
    });
  }
  const query = db
    .selectFrom('events')
    .selectAll('events')
    .where('events.author_id', '=', user.id)
    .where('events.project_id', 'in', (eb) => eb.selectFrom('projects').select('projects.id').where((p) => projectVisibleTo(p, actor)));
  return offsetPage(db, sorted(filtered(readableTargets(db, query, actor), q), q), page);
}

/** A user named by numeric id or username, as /users/:id/events takes either. */
export async function userByIdOrUsername(db: Db, key: string): Promise<UserRow> {
  // An id past 2³¹−1 names no user (and PostgreSQL's integer cannot hold it).
  if (/^\d+$/.test(key) && Number(key) > 2_147_483_647) throw notFound('User');
  const user = /^\d{1,10}$/.test(key) ? await findUser(db, Number(key)) : await findUserByUsername(db, key);
  if (!user) throw notFound('User');
  return user;
}

/** GET /events: the caller's own events, or with `scope=all` every event of the projects they belong to. */
export async function listOwnEvents(db: Db, actor: Actor & { user: UserRow }, q: EventListQuery & { scope?: string }, page: PageRequest): Promise<Page<EventRow>> {
  if (q.scope !== 'all') return listUserEvents(db, actor, actor.user, q, page);
  const query = db
    .selectFrom('events')
    .selectAll('events')
    .where('events.project_id', 'in', (eb) => eb.selectFrom('projects').select('projects.id').where((p) => projectMember(p, actor.user.id)));
  return offsetPage(db, sorted(filtered(readableTargets(db, query, actor), q), q), page);
}

/** What the presenter needs besides the row: its author, project and target. */
export interface EventDetails {
  event: EventRow;
  author: UserRow | null;
  target: Target | null;
  /** A comment's author, for its `note`. */
  noteAuthor?: UserRow | null;
}

type Target = { iid: number | null; title: string | null; note?: NoteRow & { noteable_iid: number | null } };
type TargetLoader = (db: Db, ids: number[]) => Promise<Map<number, Target>>;
const byId = <T extends { id: number }>(rows: T[]) => new Map(rows.map((r) => [r.id, r]));

/** A note's target: its noteable's title (notes have no iid of their own), and the note itself. */
async function noteTargets(db: Db, ids: number[]): Promise<Map<number, Target>> {
  const notes = await db.selectFrom('notes').selectAll().where('id', 'in', ids).execute();
  const of = async (type: 'Issue' | 'MergeRequest') => {
    const wanted = notes.filter((n) => n.noteable_type === type).map((n) => n.noteable_id);
    if (!wanted.length) return new Map<number, { iid: number; title: string }>();
    return byId(await db.selectFrom(type === 'Issue' ? 'issues' : 'merge_requests').select(['id', 'iid', 'title']).where('id', 'in', wanted).execute());
  };
  const [issues, mrs] = await Promise.all([of('Issue'), of('MergeRequest')]);
  return new Map(
    notes.map((n) => {
      const noteable = n.noteable_type === 'Issue' ? issues.get(n.noteable_id) : n.noteable_type === 'MergeRequest' ? mrs.get(n.noteable_id) : undefined;
      return [n.id, { iid: null, title: noteable?.title ?? null, note: { ...n, noteable_iid: noteable?.iid ?? null } }];
    }),
  );
}

/** How each stored target type is looked up: its iid and title, for target_iid and target_title. */
const TARGETS: Record<string, TargetLoader> = {
  Epic: async (db, ids) => byId(await db.selectFrom('epics').select(['id', 'iid', 'title']).where('id', 'in', ids).execute()),
  Issue: async (db, ids) => byId(await db.selectFrom('issues').select(['id', 'iid', 'title']).where('id', 'in', ids).execute()),
  MergeRequest: async (db, ids) => byId(await db.selectFrom('merge_requests').select(['id', 'iid', 'title']).where('id', 'in', ids).execute()),
  Milestone: async (db, ids) => byId(await db.selectFrom('milestones').select(['id', 'iid', 'title']).where('id', 'in', ids).execute()),
  Note: noteTargets,
  DiffNote: noteTargets,
};

/** Authors and targets of a page of events, one query per kind. */
export async function detailsOf(db: Db, events: EventRow[]): Promise<EventDetails[]> {
  const targets = new Map<string, Map<number, Target>>();
  for (const [type, load] of Object.entries(TARGETS)) {
    const ids = [...new Set(events.filter((e) => e.target_type === type && e.target_id !== null).map((e) => e.target_id!))];
    if (ids.length) targets.set(type, await load(db, ids));
  }
  const targetOf = (e: EventRow) => (e.target_type && e.target_id !== null ? (targets.get(e.target_type)?.get(e.target_id) ?? null) : null);
  const noteAuthors = events.map((e) => targetOf(e)?.note?.author_id ?? null);
  const authors = await usersById(db, [...events.map((e) => e.author_id), ...noteAuthors]);
  return events.map((event) => {
    const target = targetOf(event);
    const noteAuthor = target?.note?.author_id;
    return {
      event,
      author: event.author_id === null ? null : (authors.get(event.author_id) ?? null),
      target,
      ...(target?.note ? { noteAuthor: noteAuthor === null || noteAuthor === undefined ? null : (authors.get(noteAuthor) ?? null) } : {}),
    };
  });
}
