import type { Db } from '../../db/index.ts';
import type { ResourceStateEventRow, ResourceStateEventsTable, UserRow } from '../../db/schema.ts';
import { usersById } from '../access/users.ts';
import { notFound } from '../../util/errors.ts';
import { offsetPage, type Page, type PageRequest } from '../../db/pagination.ts';
import { nowIso } from '../../util/time.ts';

/**
 * Resource events: the history of an issue's, merge request's or epic's state, milestone and
 * weight (spec "Resource state events"; burndown charts read all three). One state event per
 * close, reopen, merge or lock; none for creation.
 */

/** Which resource an event belongs to: exactly one of these is set. */
export type EventOwner = { issue_id: number } | { merge_request_id: number } | { epic_id: number };

const ownerColumns = (owner: EventOwner) => ({
  issue_id: 'issue_id' in owner ? owner.issue_id : null,
  merge_request_id: 'merge_request_id' in owner ? owner.merge_request_id : null,
});

export async function recordStateEvent(
  trx: Db,
  user: { id: number } | null,
  owner: EventOwner,
  state: ResourceStateEventsTable['state'],
  source: { commit?: string; mergeRequestId?: number } = {},
): Promise<void> {
  await trx
    .insertInto('resource_state_events')
    .values({
      user_id: user?.id ?? null,
      ...ownerColumns(owner),
      epic_id: 'epic_id' in owner ? owner.epic_id : null,
      state,
      source_commit: source.commit ?? null,
      source_merge_request_id: source.mergeRequestId ?? null,
      created_at: nowIso(),
    })
    .execute();
}

export async function recordMilestoneEvent(
  trx: Db,
  user: { id: number } | null,
  owner: { issue_id: number } | { merge_request_id: number },
  milestoneId: number,
  action: 'add' | 'remove',
  state: string,
): Promise<void> {
  await trx.insertInto('resource_milestone_events').values({ user_id: user?.id ?? null, ...ownerColumns(owner), milestone_id: milestoneId, action, state, created_at: nowIso() }).execute();
}

export async function recordWeightEvent(trx: Db, user: { id: number } | null, issueId: number, weight: number | null): Promise<void> {
  await trx.insertInto('resource_weight_events').values({ user_id: user?.id ?? null, issue_id: issueId, weight, created_at: nowIso() }).execute();
}

const ownerColumn = (owner: EventOwner) => ('issue_id' in owner ? 'issue_id' : 'merge_request_id' in owner ? 'merge_request_id' : 'epic_id') as 'issue_id' | 'merge_request_id' | 'epic_id';
const ownerId = (owner: EventOwner) => ('issue_id' in owner ? owner.issue_id : 'merge_request_id' in owner ? owner.merge_request_id : owner.epic_id);

/** A state event with its user (null for Gatehouse's own, or a user since deleted). */
export interface StateEventView {
  event: ResourceStateEventRow;
  user: UserRow | null;
}

async function stateEventViews(db: Db, rows: ResourceStateEventRow[]): Promise<StateEventView[]> {
  const users = await usersById(db, rows.map((r) => r.user_id));
  return rows.map((event) => ({ event, user: event.user_id === null ? null : (users.get(event.user_id) ?? null) }));
}

/** The state events of one issue, merge request or epic, oldest first, with their users (the epics API reuses this). */
export async function listStateEvents(db: Db, owner: EventOwner, page: PageRequest): Promise<Page<StateEventView>> {
  const query = db.selectFrom('resource_state_events').selectAll().where(ownerColumn(owner), '=', ownerId(owner)).orderBy('created_at').orderBy('id');
  return (await offsetPage(db, query, page)).mapAsync((rows) => stateEventViews(db, rows));
}

/** One state event of that resource with its user, or the platform's 404. */
export async function findStateEvent(db: Db, owner: EventOwner, id: number): Promise<StateEventView> {
  const row = await db.selectFrom('resource_state_events').selectAll().where('id', '=', id).where(ownerColumn(owner), '=', ownerId(owner)).executeTakeFirst();
  if (!row) throw notFound('Resource state event');
  return (await stateEventViews(db, [row]))[0];
}
