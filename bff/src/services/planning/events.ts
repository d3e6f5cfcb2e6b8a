import { sql, type SelectQueryBuilder } from 'kysely';
import { isPostgres } from '../../db/dialect.ts';
import { numberAuthorEvents } from '../../db/migrations/036_author_event_numbers.ts';
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
 * migration 033 sets them from ACTION_NAMES and TARGET_TYPES), which the indexes of the
 * filters' numbers (migrations 033 and 036) hold in the lists' order.
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

/** The numbers a list's events carry (migrations 015, 033 and 036): overall, and among those of one filter value. */
const PROJECT_NUMBERS = { all: 'project_seq', action: 'action_seq', target: 'target_seq' } as const;
const AUTHOR_NUMBERS = { all: 'author_seq', action: 'author_action_seq', target: 'author_target_seq' } as const;
type Numbers = typeof PROJECT_NUMBERS | typeof AUTHOR_NUMBERS;
type NumberColumn = Numbers[keyof Numbers];

/** A list whose events are numbered: one project's, or one author's in projects. */
interface NumberedList {
  /** Its events, unfiltered. */
  scope: <O>(query: EventsQuery<O>) => EventsQuery<O>;
  numbers: Numbers;
  /** Whether its numbers have gaps (an author's, after a project was deleted), and whether its events' dates go back somewhere. */
  marks: () => Promise<{ gaps: boolean; datesUnordered: boolean }>;
}

const projectList = (db: Db, projectId: number): NumberedList => ({
  scope: (query) => query.where('events.project_id', '=', projectId),
  numbers: PROJECT_NUMBERS,
  marks: async () => ({
    gaps: false,
    datesUnordered: Boolean(await db.selectFrom('event_dates_unordered').select('project_id').where('project_id', '=', projectId).executeTakeFirst()),
  }),
});

const authorList = (db: Db, authorId: number): NumberedList => ({
  scope: (query) => query.where('events.author_id', '=', authorId).where('events.project_id', 'is not', null),
  numbers: AUTHOR_NUMBERS,
  marks: async () => {
    const [gaps, unordered] = await Promise.all(
      (['author_event_gaps', 'author_event_dates_unordered'] as const).map((table) => db.selectFrom(table).select('author_id').where('author_id', '=', authorId).executeTakeFirst()),
    );
    return { gaps: Boolean(gaps), datesUnordered: Boolean(unordered) };
  },
});

/**
 * The column a list is read in order by: the number of its one filter, which its index holds in
 * the order of the events' ids (a project's lists read by offset use its (project, id) index).
 */
function orderColumn(numbers: Numbers, q: EventListQuery): NumberColumn {
  if (q.action && !q.target_type) return numbers.action;
  if (q.target_type && !q.action) return numbers.target;
  return numbers.all;
}

/**
 * A page of a numbered list the caller may read whole: a range of numbers when its events are
 * one (see numberedRange), so page 10,000 costs what page 1 does, filtered or not; undefined when
 * they are not.
 */
async function numberedPage(db: Db, list: NumberedList, q: EventListQuery, page: PageRequest): Promise<Page<EventRow> | undefined> {
  const range = await numberedRange(db, list, q);
  if (!range) return undefined;
  const { column, key, first, last } = range;
  const total = Math.max(0, last - first + 1);
  const [lo, hi] = (q.sort ?? 'desc') === 'desc' ? [Math.max(first, last - page.offset - page.limit + 1), last - page.offset] : [first + page.offset, Math.min(last, first + page.offset + page.limit - 1)];
  let rows = list.scope(db.selectFrom('events').selectAll('events')).where(`events.${column}`, '>=', lo).where(`events.${column}`, '<=', hi);
  if (key) rows = rows.where(key.column, '=', key.value);
  const items = lo > hi ? [] : await rows.orderBy(`events.${column}`, q.sort ?? 'desc').execute();
  return offsetPageOf(items, total, page);
}

/**
 * A project's events the caller may see, each by the read its kind needs (services/readable.ts).
 * A caller who may do every such read here sees them all: a page is then a range of numbers.
 */
export async function listProjectEvents(db: Db, actor: Actor, subject: ProjectSubject, q: EventListQuery, page: PageRequest): Promise<Page<EventRow>> {
  const may = (read: ProjectReadAction) => canProject(actor, read, subject);
  const seesAll = EVENT_READ_ACTIONS.every(may);
  const list = projectList(db, subject.project.id);
  const numbered = seesAll ? await numberedPage(db, list, q, page) : undefined;
  if (numbered) return numbered;
  const base = list.scope(db.selectFrom('events').selectAll('events'));
  return offsetPage(db, sorted(filtered(seesAll ? base : base.where(eventsReadable(actor, readsInProject(may))), q), q), page);
}

/** The numbers a list's page is a range of: all its events', or those among one filter value's. */
interface NumberedRange {
  column: NumberColumn;
  key?: { column: 'events.action_key' | 'events.target_key'; value: string };
  first: number;
  last: number;
}

/**
 * The events a list shows as a range of numbers, found through an index without reading the
 * rows before the page; undefined when they are not one (filters combined, numbers with gaps, or
 * dates in a list whose events were not written in the order of their dates).
 * - none: 1 to the list's highest number (its events are numbered without gaps);
 * - `action` alone: 1 to the highest number among that value's, likewise `target_type`;
 * - `before` and/or `after` alone: the number of the first event after the day `after` names to
 *   that of the last event before the day `before` names.
 */
async function numberedRange(db: Db, list: NumberedList, q: EventListQuery): Promise<NumberedRange | undefined> {
  const dated = Boolean(q.before || q.after);
  if ([q.action, q.target_type, dated].filter(Boolean).length > 1) return undefined;
  const marks = await list.marks();
  if (marks.gaps || (dated && marks.datesUnordered)) return undefined;
  const { numbers } = list;
  const highest = async (column: NumberColumn, key?: NumberedRange['key']) => {
    let query = list.scope(db.selectFrom('events').select((eb) => eb.fn.max(column).as('n')));
    if (key) query = query.where(key.column, '=', key.value);
    return Number((await query.executeTakeFirst())?.n ?? 0);
  };
  if (q.action) {
    const key = { column: 'events.action_key', value: q.action } as const;
    return { column: numbers.action, key, first: 1, last: await highest(numbers.action, key) };
  }
  if (q.target_type) {
    const key = { column: 'events.target_key', value: q.target_type } as const;
    return { column: numbers.target, key, first: 1, last: await highest(numbers.target, key) };
  }
  if (!dated) return { column: numbers.all, first: 1, last: await highest(numbers.all) };
  // The ends, each one entry of the (owner, date, number) index.
  const end = async (op: '>' | '<', at: string, direction: 'asc' | 'desc') => {
    const row = await list
      .scope(db.selectFrom('events').select(`events.${numbers.all} as n`))
      .where('events.created_at', op, at)
      .orderBy('events.created_at', direction)
      .orderBy(`events.${numbers.all}`, direction)
      .limit(1)
      .executeTakeFirst();
    return row?.n ?? undefined;
  };
  const first = q.after ? await end('>', afterBound(q.after), 'asc') : 1;
  const last = q.before ? await end('<', beforeBound(q.before), 'desc') : await highest(numbers.all);
  if (first === undefined || last === undefined) return { column: numbers.all, first: 1, last: 0 };
  return { column: numbers.all, first, last };
}

/** Across projects: each event by the read its kind needs on its own project. */
const readableTargets = (db: Db, query: EventsQuery, actor: Actor): EventsQuery => query.where(eventsReadable(actor, readsAcrossProjects(db, actor)));

/**
 * A user's events in the projects the caller may read (the caller's own events in theirs). An
 * administrator reads every one in a project: a page is then a range of the author's numbers
 * (migration 036). Otherwise, and while those have gaps, the list is read by offset in the order
 * of the filter's number, which its index holds.
 */
export async function listUserEvents(db: Db, actor: Actor, user: UserRow, q: EventListQuery, page: PageRequest): Promise<Page<EventRow>> {
  const list = authorList(db, user.id);
  const order = orderColumn(list.numbers, q);
  const inOrder = <O>(query: EventsQuery<O>) => filtered(query, q).orderBy(`events.${order}`, q.sort ?? 'desc');
  if (isAdmin(actor)) {
    const numbered = await numberedPage(db, list, q, page);
    if (numbered) return numbered;
    // The page's ids from the index alone, then its rows.
    return (await offsetPage(db, inOrder(list.scope(db.selectFrom('events').select('events.id'))), page)).mapAsync(async (found) => {
      if (!found.length) return [];
      return db
        .selectFrom('events')
        .selectAll()
        .where('id', 'in', found.map((r) => r.id))
        .orderBy(`events.${order}`, q.sort ?? 'desc')
        .execute();
    });
  }
  const query = list
    .scope(db.selectFrom('events').selectAll('events'))
    .where('events.project_id', 'in', (eb) => eb.selectFrom('projects').select('projects.id').where((p) => projectVisibleTo(p, actor)));
  return offsetPage(db, inOrder(readableTargets(db, query, actor)), page);
}

/**
 * Numbers again, without gaps, the events of the authors whose numbers have some (a project
 * holding some of them was deleted), each under the lock their new events take; housekeeping
 * runs it. Returns how many authors it numbered.
 */
export async function renumberAuthorEvents(db: Db): Promise<number> {
  const authors = (await db.selectFrom('author_event_gaps').select('author_id').orderBy('author_id').execute()).map((r) => r.author_id);
  for (const authorId of authors) {
    await db.transaction().execute(async (trx) => {
      if (isPostgres(trx)) await sql`SELECT pg_advisory_xact_lock(1701147746, ${authorId})`.execute(trx);
      await numberAuthorEvents(trx, sql<boolean>`author_id = ${authorId}`);
      // Read again, after the numbering: a deletion that committed while it ran (PostgreSQL) left
      // gaps again, and the mark stays for the next run. (Removing the highest numbers, which
      // are the highest of each filter value too, leaves none.)
      const { n, top } = (await authorList(trx, authorId)
        .scope(trx.selectFrom('events').select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.max('events.author_seq').as('top')]))
        .executeTakeFirstOrThrow()) as { n: number | string; top: number | null };
      if (Number(n) === Number(top ?? 0)) await trx.deleteFrom('author_event_gaps').where('author_id', '=', authorId).execute();
    });
  }
  return authors.length;
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
