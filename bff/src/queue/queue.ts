import crypto from 'node:crypto';
import { EventEmitter } from 'node:events';
import { sql, type Updateable } from 'kysely';
import type { Db } from '../db/index.ts';
import type { JobRow, JobsTable } from '../db/schema.ts';
import { isPostgres } from '../db/dialect.ts';
import type { z } from 'zod';
import { isoPlus, nowIso } from '../util/time.ts';
import type { JobTicket } from './define.ts';
import { padded, rowChunks } from './statement-sizes.ts';

/**
 * Durable jobs: a row per job, claimed with a lease (several workers and instances share the
 * table; PostgreSQL claims with FOR UPDATE SKIP LOCKED), retried with back-off when a handler
 * throws, and claimed again when a worker died holding it (its lease runs out).
 */
export const jobEvents = new EventEmitter();
jobEvents.setMaxListeners(100);

/**
 * Several jobs of one kind in one statement (an event's deliveries to all its hooks), with what
 * they share stored once when the definition declares a `shared` part.
 */
export async function enqueueMany<S extends z.ZodType, H extends z.ZodType>(
  db: Db,
  def: JobTicket<S, H>,
  payloads: z.input<S>[],
  ...shared: H extends z.ZodUndefined ? [] : [z.input<H>]
): Promise<void> {
  if (!payloads.length) return;
  const now = nowIso();
  let sharedId: number | null = null;
  if (def.shared) {
    const row = await db.insertInto('job_payloads').values({ payload: JSON.stringify(def.shared.parse(shared[0])), created_at: now }).returning('id').executeTakeFirstOrThrow();
    sharedId = row.id;
  }
  const rows = payloads.map((p) => ({ kind: def.kind, payload: JSON.stringify(def.payload.parse(p)), shared_payload_id: sharedId, run_at: now, max_attempts: def.maxAttempts, created_at: now, updated_at: now }));
  for (const part of rowChunks(db, rows)) await db.insertInto('jobs').values(part).execute();
  jobEvents.emit('enqueued');
}

export async function enqueue<S extends z.ZodType>(
  db: Db,
  def: JobTicket<S>,
  payload: z.input<S>,
  opts: { runAt?: string; uniqueKey?: string } = {},
): Promise<void> {
  const now = nowIso();
  let q = db.insertInto('jobs').values({
    kind: def.kind,
    payload: JSON.stringify(def.payload.parse(payload)),
    run_at: opts.runAt ?? now,
    max_attempts: def.maxAttempts,
    unique_key: opts.uniqueKey ?? null,
    created_at: now,
    updated_at: now,
  });
  if (opts.uniqueKey) q = q.onConflict((oc) => oc.column('unique_key').doNothing());
  await q.execute();
  jobEvents.emit('enqueued');
}

export const workerId = () => `${process.pid}-${crypto.randomBytes(4).toString('hex')}`;

/** Id lists go to the database in a few shapes (see statement-sizes.ts), at most 512 ids a statement. */
const idLists = (ids: number[]): number[][] => Array.from({ length: Math.ceil(ids.length / 512) }, (_, i) => padded(ids.slice(i * 512, (i + 1) * 512)));

/**
 * Claims the next due job for `worker`: first a pending one (an index walk on state, run_at),
 * and only when none is due, one whose worker's lease ran out.
 */
export async function claim(db: Db, worker: string, leaseMs: Lease): Promise<JobRow | undefined> {
  return (await claimBatch(db, worker, leaseMs, 1))[0];
}

/**
 * Claims up to `limit` due jobs for `worker`, one statement for the pending ones and, when
 * they do not fill the batch (and `expired` is not false), one for jobs whose lease ran out.
 */
export async function claimBatch(db: Db, worker: string, leaseMs: Lease, limit: number, opts: { expired?: boolean } = {}): Promise<JobRow[]> {
  const pending = await claimWhere(db, worker, leaseMs, 'pending', limit);
  if (pending.length >= limit || opts.expired === false) return pending;
  return [...pending, ...(await claimWhere(db, worker, leaseMs, 'expired', limit - pending.length))];
}

/**
 * How long a claim holds a job: one length, or one per kind (so that a kind with a longer lease
 * needs no second statement to extend it) with the shortest for any other kind.
 */
export type Lease = number | ReadonlyMap<string, number>;

function lockedUntil(lease: Lease) {
  if (typeof lease === 'number') return isoPlus(lease);
  const shortest = isoPlus(Math.min(...lease.values()));
  let byKind = sql<string>`case kind`;
  for (const [kind, ms] of lease) byKind = sql<string>`${byKind} when ${kind} then ${isoPlus(ms)}`;
  return sql<string>`${byKind} else ${shortest} end`;
}

async function claimWhere(db: Db, worker: string, leaseMs: Lease, which: 'pending' | 'expired', limit: number): Promise<JobRow[]> {
  const now = nowIso();
  let next = db.selectFrom('jobs').select('id');
  next =
    which === 'pending'
      ? next.where('state', '=', 'pending').where('run_at', '<=', now).orderBy('run_at').orderBy('id')
      : next.where('state', '=', 'running').where('locked_until', '<', now).orderBy('locked_until');
  next = next.limit(limit);
  if (isPostgres(db)) next = next.forUpdate().skipLocked();
  const rows = await db
    .updateTable('jobs')
    .set({ state: 'running', locked_by: worker, locked_until: lockedUntil(leaseMs), attempts: sql<number>`attempts + 1`, updated_at: now })
    .where('id', 'in', next)
    .returningAll()
    .execute();
  return rows.sort((a, b) => a.id - b.id);
}

export async function complete(db: Db, job: JobRow): Promise<void> {
  await completeBatch(db, job.locked_by ?? '', [job.id]);
}

/**
 * Finishes a batch in one transaction: marks done the jobs `worker` still holds (a job whose
 * lease ran out may be another worker's now) and hands exactly those to `record`, which writes
 * what they produced. A job is done exactly when its result is stored: a crash before the
 * commit leaves both undone, and the job runs again once its lease runs out.
 */
export async function completeBatch(db: Db, worker: string, ids: number[], record?: (trx: Db, held: Set<number>) => Promise<void>): Promise<Set<number>> {
  if (!ids.length) return new Set();
  return db.transaction().execute(async (trx) => {
    // A write first: on SQLite the transaction takes the write lock now, not halfway through.
    const held = await updateHeld(trx, worker, ids, { state: 'done', locked_by: null, locked_until: null, updated_at: nowIso() });
    if (record && held.size) await record(trx, held);
    return held;
  });
}

/** Extends the leases `worker` still holds on these jobs, in one statement; returns those it still holds. */
export async function renewLeases(db: Db, worker: string, ids: number[], leaseMs: number): Promise<Set<number>> {
  return updateHeld(db, worker, ids, { locked_until: isoPlus(leaseMs), updated_at: nowIso() });
}

/** Updates those of the jobs that `worker` still holds; returns their ids. */
async function updateHeld(db: Db, worker: string, ids: number[], set: Updateable<JobsTable>): Promise<Set<number>> {
  const held = new Set<number>();
  for (const part of idLists(ids)) {
    const rows = await db.updateTable('jobs').set(set).where('id', 'in', part).where('state', '=', 'running').where('locked_by', '=', worker).returning('id').execute();
    for (const r of rows) held.add(r.id);
  }
  return held;
}

/**
 * A failed attempt: tried again after 2^attempts seconds (at most 10 minutes), or given up.
 * Only by the worker that still holds the lease: once it ran out, another worker may have
 * claimed the job, and the old one must not reset that worker's run.
 */
export async function fail(db: Db, job: JobRow, error: unknown): Promise<void> {
  const giveUp = job.attempts >= job.max_attempts;
  await db
    .updateTable('jobs')
    .set({
      state: giveUp ? 'failed' : 'pending',
      run_at: isoPlus(Math.min(2 ** job.attempts * 1000, 600_000)),
      locked_by: null,
      locked_until: null,
      last_error: String((error as Error)?.stack ?? error).slice(0, 4000),
      updated_at: nowIso(),
    })
    .where('id', '=', job.id)
    .where('locked_by', '=', job.locked_by)
    .execute();
}

/** The shared payloads of these claimed jobs (JSON text by id), in one statement per 512. */
export async function sharedPayloads(db: Db, jobs: JobRow[]): Promise<Map<number, string>> {
  const ids = [...new Set(jobs.flatMap((j) => (j.shared_payload_id === null ? [] : [j.shared_payload_id])))];
  const out = new Map<number, string>();
  for (const part of idLists(ids)) {
    for (const r of await db.selectFrom('job_payloads').select(['id', 'payload']).where('id', 'in', part).execute()) out.set(r.id, r.payload);
  }
  return out;
}

/**
 * Removes finished jobs older than the given age, keeping the table small, then the shared
 * payloads no job refers to any more (older than that age too, so that one whose jobs are being
 * inserted is left alone).
 */
export async function purgeFinishedJobs(db: Db, olderThanMs: number): Promise<number> {
  const before = new Date(Date.now() - olderThanMs).toISOString();
  const res = await db.deleteFrom('jobs').where('state', 'in', ['done', 'failed']).where('updated_at', '<', before).executeTakeFirst();
  await db
    .deleteFrom('job_payloads')
    .where('created_at', '<', before)
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('jobs').select('jobs.id').whereRef('jobs.shared_payload_id', '=', 'job_payloads.id'))))
    .execute();
  return Number(res.numDeletedRows);
}
