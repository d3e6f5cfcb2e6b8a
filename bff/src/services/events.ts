import type { SelectQueryBuilder } from 'kysely';
import type { Db } from '../db/index.ts';
import type { Database, EventRow, ProjectRow, UserRow } from '../db/schema.ts';
import type { Actor } from '../auth/actor.ts';
import { offsetPage, Page, type PageRequest } from '../db/pagination.ts';
import type { EventListQuery } from '../../../shared/src/events.ts';
import { projectMember, projectVisibleTo } from './visibility.ts';
import { findUser, findUserByUsername } from './users.ts';
import { notFound } from './errors.ts';

/**
 * Activity events: who did what in which project, as the dashboard, a user's profile and a
 * project's activity list them. Epic events live in the same table (group_id set, no
 * project) but the API does not return them, so every list here is of project events.
 */

/** The stored action names each `action` filter value stands for. */
const ACTION_NAMES: Record<NonNullable<EventListQuery['action']>, string[]> = {
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
const TARGET_TYPES: Record<NonNullable<EventListQuery['target_type']>, string[]> = {
  epic: ['Epic'],
  issue: ['Issue'],
  merge_request: ['MergeRequest'],
  milestone: ['Milestone'],
  note: ['Note', 'DiffNote'],
  project: ['Project'],
  snippet: ['Snippet', 'ProjectSnippet'],
  user: ['User'],
};

type EventsQuery = SelectQueryBuilder<Database, 'events', EventRow>;

const hasFilters = (q: EventListQuery) => Boolean(q.action || q.target_type || q.before || q.after);

/** `before` and `after` exclude the day they name, as on the platform. */
function filtered(query: EventsQuery, q: EventListQuery): EventsQuery {
  let out = query;
  if (q.action) out = out.where('events.action_name', 'in', ACTION_NAMES[q.action]);
  if (q.target_type) out = out.where('events.target_type', 'in', TARGET_TYPES[q.target_type]);
  if (q.before) out = out.where('events.created_at', '<', `${q.before}T00:00:00.000Z`);
  if (q.after) out = out.where('events.created_at', '>', `${q.after}T23:59:59.999Z`);
  return out;
}

const sorted = (query: EventsQuery, q: EventListQuery) => query.orderBy('events.id', q.sort ?? 'desc');

/**
 * A project's events. `seesAll`: the caller may read every event of the project (not only
 * those of public targets). Unfiltered, a page is a range of the events' numbers in their
 * project (see migration 015), so page 10,000 costs what page 1 does.
 */
export async function listProjectEvents(db: Db, project: ProjectRow, q: EventListQuery, page: PageRequest, seesAll: boolean): Promise<Page<EventRow>> {
  const base = db.selectFrom('events').selectAll('events').where('events.project_id', '=', project.id);
  const hidden = hiddenTargets(seesAll);
  if (hasFilters(q) || hidden) return offsetPage(sorted(filtered(hidden ? hidden(base) : base, q), q), page);
  const last = await db
    .selectFrom('events')
    .select((eb) => eb.fn.max('project_seq').as('n'))
    .where('project_id', '=', project.id)
    .executeTakeFirst();
  const total = Number(last?.n ?? 0);
  const [lo, hi] = (q.sort ?? 'desc') === 'desc' ? [total - page.offset - page.limit + 1, total - page.offset] : [page.offset + 1, page.offset + page.limit];
  const items = hi < 1 || lo > total ? [] : await base.where('events.project_seq', '>=', lo).where('events.project_seq', '<=', hi).orderBy('events.project_seq', q.sort ?? 'desc').execute();
  return new Page(items, page.page, page.perPage, total);
}

/**
 * Leaves out, for callers who do not see everything, the events whose target they may not
 * read (confidential ones); none of the targets written so far is confidential.
 */
function hiddenTargets(seesAll: boolean): ((query: EventsQuery) => EventsQuery) | undefined {
  return seesAll ? undefined : undefined;
}

/**
 * A user's events in the projects the caller may read (the caller's own events in theirs).
 */
export async function listUserEvents(db: Db, actor: Actor, user: UserRow, q: EventListQuery, page: PageRequest): Promise<Page<EventRow>> {
  const query = db
    .selectFrom('events')
    .selectAll('events')
    .where('events.author_id', '=', user.id)
    .where('events.project_id', 'in', (eb) => eb.selectFrom('projects').select('projects.id').where((p) => projectVisibleTo(p, actor)));
  return offsetPage(sorted(filtered(query, q), q), page);
}

/** A user named by numeric id or username, as /users/:id/events takes either. */
export async function userByIdOrUsername(db: Db, key: string): Promise<UserRow> {
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
  return offsetPage(sorted(filtered(query, q), q), page);
}

/** What the presenter needs besides the row: its author, project and target. */
export interface EventDetails {
  event: EventRow;
  author: UserRow | null;
  target: { iid: number | null; title: string | null } | null;
}

type TargetLoader = (db: Db, ids: number[]) => Promise<Map<number, { iid: number | null; title: string | null }>>;

/** How each stored target type is looked up: its iid and title, for target_iid and target_title. */
const TARGETS: Record<string, TargetLoader> = {
  Epic: async (db, ids) => new Map((await db.selectFrom('epics').select(['id', 'iid', 'title']).where('id', 'in', ids).execute()).map((r) => [r.id, r])),
};

/** Authors and targets of a page of events, one query per kind. */
export async function detailsOf(db: Db, events: EventRow[]): Promise<EventDetails[]> {
  const authorIds = [...new Set(events.map((e) => e.author_id).filter((id): id is number => id !== null))];
  const authors = new Map(authorIds.length ? (await db.selectFrom('users').selectAll().where('id', 'in', authorIds).execute()).map((u) => [u.id, u]) : []);
  const targets = new Map<string, Map<number, { iid: number | null; title: string | null }>>();
  for (const [type, load] of Object.entries(TARGETS)) {
    const ids = [...new Set(events.filter((e) => e.target_type === type && e.target_id !== null).map((e) => e.target_id!))];
    if (ids.length) targets.set(type, await load(db, ids));
  }
  return events.map((event) => ({
    event,
    author: event.author_id === null ? null : (authors.get(event.author_id) ?? null),
    target: event.target_type && event.target_id !== null ? (targets.get(event.target_type)?.get(event.target_id) ?? null) : null,
  }));
}
