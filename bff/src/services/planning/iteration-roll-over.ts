import type { Db } from '../../db/index.ts';
import type { IterationCadenceRow, IterationRow } from '../../db/schema.ts';
import { ITERATION_STATES } from '../../../../shared/src/iterations.ts';
import { nowIso } from '../../util/time.ts';
import { scheduleCadence } from './iteration-cadences.ts';
import { recordIterationEvents } from './resource-iteration-events.ts';

/**
 * What the iterations job does on a day `on` (YYYY-MM-DD), as the platform's daily iteration
 * workers do:
 *
 * 1. every active automatic cadence schedules its iterations up to `on` and those in advance;
 * 2. upcoming iterations whose start date has come become current;
 * 3. upcoming and current iterations whose due date has passed become closed, and when their
 *    cadence is active, automatic and rolls over, their open issues move to the cadence's next
 *    iteration that is not over (the first, by start date, starting on or after the closed
 *    one's due date and ending on or after `on`): closed issues stay where they were done.
 *    Each moved issue gets a "remove" and an "add" resource iteration event (no user: the
 *    platform's automation bot, which Gatehouse does not have).
 *
 * Each closing is one transaction that begins by moving the state from open to closed: only
 * the caller whose update changed the row rolls its issues over, so a second run, or another
 * instance running at the same moment, finds nothing left to do. A crash undoes both.
 */
export interface AdvanceResult {
  scheduled: number;
  started: number;
  closed: number;
  /** Per closed iteration that rolled over: where its open issues went. */
  rolledOver: { from: number; to: number; issueIds: number[] }[];
}

const BATCH = 100;

export async function advanceIterations(db: Db, on: string): Promise<AdvanceResult> {
  const result: AdvanceResult = { scheduled: 0, started: 0, closed: 0, rolledOver: [] };
  const automatic = await db.selectFrom('iteration_cadences').selectAll().where('automatic', '=', 1).where('active', '=', 1).orderBy('id').execute();
  for (const cadence of automatic) result.scheduled += await countScheduled(db, cadence, on);

  const started = await db
    .updateTable('iterations')
    .set({ state: ITERATION_STATES.current, updated_at: nowIso() })
    .where('state', '=', ITERATION_STATES.upcoming)
    .where('start_date', '<=', on)
    .where('due_date', '>=', on)
    .executeTakeFirst();
  result.started = Number(started.numUpdatedRows);

  for (;;) {
    const due = await db
      .selectFrom('iterations')
      .selectAll()
      .where('state', '!=', ITERATION_STATES.closed)
      .where('due_date', '<', on)
      .orderBy('due_date')
      .orderBy('id')
      .limit(BATCH)
      .execute();
    for (const iteration of due) {
      const closed = await closeIteration(db, iteration, on);
      if (!closed) continue;
      result.closed++;
      if (closed.to !== null) result.rolledOver.push({ from: iteration.id, to: closed.to, issueIds: closed.issueIds });
    }
    if (due.length < BATCH) return result;
  }
}

async function countScheduled(db: Db, cadence: IterationCadenceRow, on: string): Promise<number> {
  const count = async () => Number((await db.selectFrom('iterations').select((eb) => eb.fn.countAll().as('n')).where('iteration_cadence_id', '=', cadence.id).executeTakeFirst())?.n ?? 0);
  const before = await count();
  await scheduleCadence(db, cadence, on);
  return (await count()) - before;
}

/**
 * Closes one iteration and rolls its open issues over; undefined when another run closed it
 * first. `to` is null when nothing rolls over (the cadence does not, or has no next iteration).
 */
export async function closeIteration(db: Db, iteration: IterationRow, on: string): Promise<{ to: number | null; issueIds: number[] } | undefined> {
  return db.transaction().execute(async (trx) => {
    const now = nowIso();
    // A write first: it claims the closing (and, on SQLite, the write lock) before anything is read.
    const claimed = await trx
      .updateTable('iterations')
      .set({ state: ITERATION_STATES.closed, updated_at: now })
      .where('id', '=', iteration.id)
      .where('state', '!=', ITERATION_STATES.closed)
      .returning('id')
      .executeTakeFirst();
    if (!claimed) return undefined;
    const cadence = await trx.selectFrom('iteration_cadences').selectAll().where('id', '=', iteration.iteration_cadence_id).executeTakeFirstOrThrow();
    if (!(cadence.active && cadence.automatic && cadence.roll_over)) return { to: null, issueIds: [] };
    const next = await trx
      .selectFrom('iterations')
      .select('id')
      .where('iteration_cadence_id', '=', cadence.id)
      .where('state', '!=', ITERATION_STATES.closed)
      .where('start_date', '>=', iteration.due_date)
      .where('due_date', '>=', on)
      .orderBy('start_date')
      .limit(1)
      .executeTakeFirst();
    if (!next) return { to: null, issueIds: [] };
    const moved = await trx
      .updateTable('issues')
      .set({ iteration_id: next.id, updated_at: now })
      .where('iteration_id', '=', iteration.id)
      .where('state', '=', 'opened')
      .returning('id')
      .execute();
    const issueIds = moved.map((m) => m.id).sort((a, b) => a - b);
    await recordIterationEvents(trx, null, issueIds, iteration.id, 'remove', now);
    await recordIterationEvents(trx, null, issueIds, next.id, 'add', now);
    return { to: next.id, issueIds };
  });
}
