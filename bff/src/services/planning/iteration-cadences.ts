import type { z } from 'zod';
import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import type { Db } from '../../db/index.ts';
import type { Database, GroupRow, IterationCadenceRow, IterationRow, IterationCadencesTable } from '../../db/schema.ts';
import { ITERATION_STATES, iterationStateOn, type iterationCadenceCreateBody, type iterationCadenceUpdateBody, type iterationCreateBody, type ITERATION_LIST_STATES } from '../../../../shared/src/iterations.ts';
import { columnsOf } from '../../db/columns.ts';
import { offsetPage, type Page, type PageRequest } from '../../db/pagination.ts';
import { uniqueViolation } from '../../db/errors.ts';
import { notFound, validationFailed } from '../../util/errors.ts';
import { nowIso, today } from '../../util/time.ts';

/**
 * Iteration cadences and their iterations. An automatic cadence keeps its iterations
 * scheduled as the platform's cadence worker does: back-to-back iterations of
 * `duration_in_weeks` from `start_date`, up to the current one and `iterations_in_advance`
 * upcoming ones, each with a null title. Scheduling runs when a cadence is written, when
 * iterations are listed and in the iterations job (iteration-roll-over.ts), which also moves
 * the stored states as days pass and rolls unfinished issues over.
 */
const DAY = 86_400_000;
/** An old start date on a short cadence must not make a request insert thousands of rows. */
const MAX_SCHEDULED = 260;
const cadenceColumns = columnsOf<IterationCadencesTable>();

const plusDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);

export async function listCadences(db: Db, group: GroupRow, page: PageRequest): Promise<Page<IterationCadenceRow>> {
  return offsetPage(db, db.selectFrom('iteration_cadences').selectAll().where('group_id', '=', group.id).orderBy('id'), page);
}

export async function getCadence(db: Db, group: GroupRow, id: number): Promise<IterationCadenceRow> {
  const row = await db.selectFrom('iteration_cadences').selectAll().where('group_id', '=', group.id).where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound('Iteration Cadence');
  return row;
}

export async function createCadence(db: Db, group: GroupRow, body: z.output<typeof iterationCadenceCreateBody>): Promise<IterationCadenceRow> {
  const now = nowIso();
  const { id } = await db
    .insertInto('iteration_cadences')
    .values({ ...cadenceColumns({ automatic: true, roll_over: false, active: true, ...body }), group_id: group.id, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  const cadence = await getCadence(db, group, id);
  await scheduleCadence(db, cadence);
  return cadence;
}

export async function updateCadence(db: Db, cadence: IterationCadenceRow, body: z.output<typeof iterationCadenceUpdateBody>): Promise<IterationCadenceRow> {
  const next = { ...cadence, ...cadenceColumns(body) };
  if (next.automatic && (!next.start_date || !next.duration_in_weeks || !next.iterations_in_advance)) {
    throw validationFailed({ start_date: ['is required for an automatic cadence'] });
  }
  await db.updateTable('iteration_cadences').set({ ...cadenceColumns(body), updated_at: nowIso() }).where('id', '=', cadence.id).execute();
  const row = await db.selectFrom('iteration_cadences').selectAll().where('id', '=', cadence.id).executeTakeFirstOrThrow();
  await scheduleCadence(db, row);
  return row;
}

/** Deletes the cadence and its iterations; their issues keep no iteration (the column has no foreign key). */
export async function deleteCadence(db: Db, cadence: IterationCadenceRow): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const iterationIds = trx.selectFrom('iterations').select('id').where('iteration_cadence_id', '=', cadence.id);
    await trx.updateTable('issues').set({ iteration_id: null }).where('iteration_id', 'in', iterationIds).execute();
    await trx.deleteFrom('iteration_cadences').where('id', '=', cadence.id).execute();
  });
}

/** The stored state an iteration with these dates starts with. */
export const initialState = (dates: { start_date: string; due_date: string }, on: string): number => ITERATION_STATES[iterationStateOn(dates, on)];

/** The dates automatic scheduling wants: from the start, through today, plus the iterations in advance. */
export function scheduledDates(cadence: Pick<IterationCadenceRow, 'start_date' | 'duration_in_weeks' | 'iterations_in_advance'>, on: string): { start_date: string; due_date: string }[] {
  if (!cadence.start_date || !cadence.duration_in_weeks || !cadence.iterations_in_advance) return [];
  const days = cadence.duration_in_weeks * 7;
  const out: { start_date: string; due_date: string }[] = [];
  let upcoming = 0;
  for (let start = cadence.start_date; out.length < MAX_SCHEDULED; start = plusDays(start, days)) {
    if (start > on && ++upcoming > cadence.iterations_in_advance) break;
    out.push({ start_date: start, due_date: plusDays(start, days - 1) });
  }
  return out;
}

/** Inserts the iterations an automatic, active cadence is missing (by sequence). */
export async function scheduleCadence(db: Db, cadence: IterationCadenceRow, on = today()): Promise<void> {
  if (!cadence.automatic || !cadence.active) return;
  const wanted = scheduledDates(cadence, on);
  const have = await db.selectFrom('iterations').select(['sequence']).where('iteration_cadence_id', '=', cadence.id).execute();
  const taken = new Set(have.map((r) => r.sequence));
  const missing = wanted.map((d, i) => ({ ...d, sequence: i + 1 })).filter((d) => !taken.has(d.sequence));
  if (!missing.length) return;
  try {
    await db.transaction().execute(async (trx) => {
      let iid = await nextIid(trx, cadence.group_id);
      const now = nowIso();
      await trx
        .insertInto('iterations')
        .values(missing.map((d) => ({ ...d, state: initialState(d, on), iteration_cadence_id: cadence.id, group_id: cadence.group_id, iid: iid++, title: null, description: null, created_at: now, updated_at: now })))
        .execute();
    });
  } catch (err) {
    // Another request scheduled the same iterations at the same moment: theirs stand.
    if (uniqueViolation(err) === undefined) throw err;
  }
}

/** Keeps every automatic cadence of these groups scheduled up to today. */
export async function scheduleGroups(db: Db, groupIds: number[]): Promise<void> {
  if (!groupIds.length) return;
  const cadences = await db.selectFrom('iteration_cadences').selectAll().where('group_id', 'in', groupIds).where('automatic', '=', 1).where('active', '=', 1).execute();
  for (const cadence of cadences) await scheduleCadence(db, cadence);
}

async function nextIid(db: Db, groupId: number): Promise<number> {
  const row = await db.selectFrom('iterations').select((eb) => eb.fn.max('iid').as('max')).where('group_id', '=', groupId).executeTakeFirst();
  return Number(row?.max ?? 0) + 1;
}

/** Iterations of one stored state ("opened" is upcoming or current), as the platform filters them. */
export const stateFilter =
  (state: (typeof ITERATION_LIST_STATES)[number] | undefined) =>
  (eb: ExpressionBuilder<Database, 'iterations'>): Expression<SqlBool> => {
    if (state === 'upcoming' || state === 'current' || state === 'closed') return eb('iterations.state', '=', ITERATION_STATES[state]);
    if (state === 'opened') return eb('iterations.state', '!=', ITERATION_STATES.closed);
    return eb.lit(true);
  };

export async function listCadenceIterations(db: Db, cadence: IterationCadenceRow, state: (typeof ITERATION_LIST_STATES)[number] | undefined, page: PageRequest): Promise<Page<IterationRow>> {
  await scheduleCadence(db, cadence);
  const q = db.selectFrom('iterations').selectAll().where('iteration_cadence_id', '=', cadence.id).where(stateFilter(state));
  return offsetPage(db, q.orderBy('start_date').orderBy('id'), page);
}

/** A manual iteration: its dates may not overlap another iteration of the cadence. Its state is its dates' on `on`. */
export async function createIteration(db: Db, cadence: IterationCadenceRow, body: z.output<typeof iterationCreateBody>, on = today()): Promise<IterationRow> {
  const overlapping = await db
    .selectFrom('iterations')
    .select('id')
    .where('iteration_cadence_id', '=', cadence.id)
    .where('start_date', '<=', body.due_date)
    .where('due_date', '>=', body.start_date)
    .executeTakeFirst();
  if (overlapping) throw validationFailed({ base: ['Dates cannot overlap with other existing Iterations within this iterations cadence'] });
  return db.transaction().execute(async (trx) => {
    const seq = await trx.selectFrom('iterations').select((eb) => eb.fn.max('sequence').as('max')).where('iteration_cadence_id', '=', cadence.id).executeTakeFirst();
    const now = nowIso();
    const { id } = await trx
      .insertInto('iterations')
      .values({
        iteration_cadence_id: cadence.id,
        group_id: cadence.group_id,
        iid: await nextIid(trx, cadence.group_id),
        sequence: Number(seq?.max ?? 0) + 1,
        title: body.title ?? null,
        description: body.description ?? null,
        start_date: body.start_date,
        due_date: body.due_date,
        state: initialState(body, on),
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return trx.selectFrom('iterations').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  });
}
