import type { Db } from '../db/index.ts';
import type { ResourceIterationEventRow, ResourceStateEventRow, ResourceStateEventsTable } from '../db/schema.ts';
import { notFound } from './errors.ts';
import { offsetPage, type Page, type PageRequest } from '../db/pagination.ts';
import { nowIso } from '../util/time.ts';

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

/** The state events of one issue, merge request or epic, oldest first (the epics API reuses this). */
export function listStateEvents(db: Db, owner: EventOwner, page: PageRequest): Promise<Page<ResourceStateEventRow>> {
  const query = db.selectFrom('resource_state_events').selectAll().where(ownerColumn(owner), '=', ownerId(owner)).orderBy('created_at').orderBy('id');
  return offsetPage(query, page);
}

/** One state event of that resource, or the platform's 404. */
export async function findStateEvent(db: Db, owner: EventOwner, id: number): Promise<ResourceStateEventRow> {
  const row = await db.selectFrom('resource_state_events').selectAll().where('id', '=', id).where(ownerColumn(owner), '=', ownerId(owner)).executeTakeFirst();
  if (!row) throw notFound('Resource state event');
  return row;
}

/** Issues put in (`add`) or taken out of (`remove`) an iteration, one event each; `user` null for a roll-over. */
export async function recordIterationEvents(trx: Db, user: { id: number } | null, issueIds: number[], iterationId: number, action: 'add' | 'remove', at = nowIso()): Promise<void> {
  for (let i = 0; i < issueIds.length; i += 500) {
    const part = issueIds.slice(i, i + 500);
    await trx.insertInto('resource_iteration_events').values(part.map((issue_id) => ({ user_id: user?.id ?? null, issue_id, iteration_id: iterationId, action, created_at: at }))).execute();
  }
}

/** The iteration events of one issue, oldest first. */
export function listIterationEvents(db: Db, issueId: number, page: PageRequest): Promise<Page<ResourceIterationEventRow>> {
  return offsetPage(db.selectFrom('resource_iteration_events').selectAll().where('issue_id', '=', issueId).orderBy('created_at').orderBy('id'), page);
}

/** One iteration event of that issue, or the platform's 404. */
export async function findIterationEvent(db: Db, issueId: number, id: number): Promise<ResourceIterationEventRow> {
  const row = await db.selectFrom('resource_iteration_events').selectAll().where('id', '=', id).where('issue_id', '=', issueId).executeTakeFirst();
  if (!row) throw notFound('Resource iteration event');
  return row;
}
