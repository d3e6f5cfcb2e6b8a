import type { Db } from '../../db/index.ts';
import type { ResourceIterationEventRow, UserRow } from '../../db/schema.ts';
import { notFound } from '../../util/errors.ts';
import { offsetPage, type Page, type PageRequest } from '../../db/pagination.ts';
import { nowIso } from '../../util/time.ts';
import { usersById } from '../access/users.ts';
import { iterationsById, type IterationWithGroup } from './project-iterations.ts';

/**
 * Resource iteration events: an issue put in (`add`) or taken out of (`remove`) an iteration.
 * A roll-over records both, without a user.
 */

/** Issues put in or taken out of an iteration, one event each; `user` null for a roll-over. */
export async function recordIterationEvents(trx: Db, user: { id: number } | null, issueIds: number[], iterationId: number, action: 'add' | 'remove', at = nowIso()): Promise<void> {
  for (let i = 0; i < issueIds.length; i += 500) {
    const part = issueIds.slice(i, i + 500);
    await trx.insertInto('resource_iteration_events').values(part.map((issue_id) => ({ user_id: user?.id ?? null, issue_id, iteration_id: iterationId, action, created_at: at }))).execute();
  }
}

/** An iteration event with its user (null for a roll-over, or a user since deleted) and its iteration. */
export interface IterationEventView {
  event: ResourceIterationEventRow;
  user: UserRow | null;
  iteration: IterationWithGroup;
}

/** Users and iterations of the events, in two queries. */
async function iterationEventViews(db: Db, rows: ResourceIterationEventRow[]): Promise<IterationEventView[]> {
  const [users, iterations] = await Promise.all([usersById(db, rows.map((r) => r.user_id)), iterationsById(db, rows.map((r) => r.iteration_id))]);
  return rows.map((event) => ({
    event,
    user: event.user_id === null ? null : (users.get(event.user_id) ?? null),
    // The event goes with its iteration (foreign key, on delete cascade): it is always there.
    iteration: iterations.get(event.iteration_id)!,
  }));
}

/** The iteration events of one issue, oldest first. */
export async function listIterationEvents(db: Db, issueId: number, page: PageRequest): Promise<Page<IterationEventView>> {
  const query = db.selectFrom('resource_iteration_events').selectAll().where('issue_id', '=', issueId).orderBy('created_at').orderBy('id');
  return (await offsetPage(db, query, page)).mapAsync((rows) => iterationEventViews(db, rows));
}

/** One iteration event of that issue, or the platform's 404. */
export async function findIterationEvent(db: Db, issueId: number, id: number): Promise<IterationEventView> {
  const row = await db.selectFrom('resource_iteration_events').selectAll().where('id', '=', id).where('issue_id', '=', issueId).executeTakeFirst();
  if (!row) throw notFound('Resource iteration event');
  return (await iterationEventViews(db, [row]))[0];
}
