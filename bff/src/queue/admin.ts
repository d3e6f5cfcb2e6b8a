import type { Db } from '../db/index.ts';
import { offsetPage, type Page, type PageRequest } from '../db/pagination.ts';
import type { JobRow } from '../db/schema.ts';
import { conflict, notFound } from '../util/errors.ts';
import { nowIso } from '../util/time.ts';
import { jobEvents } from './queue.ts';
import type { AdminJobsQuery, AdminJobsSummary, JobState } from '../../../shared/src/admin-jobs.ts';

/*
 * What an administrator reads and does on the job table: counts by state, the jobs filtered by
 * state and kind, and a retry of a job that gave up. The queue knows no area: kinds are plain
 * text here, as the rows hold them.
 */

export type AdminJobRow = Omit<JobRow, 'payload' | 'locked_by' | 'unique_key' | 'shared_payload_id'>;

const LISTED = ['id', 'kind', 'state', 'attempts', 'max_attempts', 'run_at', 'locked_until', 'last_error', 'created_at', 'updated_at'] as const;

export async function jobsSummary(db: Db): Promise<AdminJobsSummary> {
  const byState = new Map(
    (await db.selectFrom('jobs').select(['state', (eb) => eb.fn.countAll().as('n')]).groupBy('state').execute()).map((r) => [r.state, Number(r.n)]),
  );
  const kinds = (await db.selectFrom('jobs').select('kind').distinct().orderBy('kind').execute()).map((r) => r.kind);
  const count = (s: JobState) => byState.get(s) ?? 0;
  return { counts: { pending: count('pending'), running: count('running'), failed: count('failed'), done: count('done') }, kinds };
}

/** Newest first; a failed job keeps its row (and its last error) until housekeeping purges it a day after it gave up. */
export async function listJobs(db: Db, filter: Pick<AdminJobsQuery, 'state' | 'kind'>, page: PageRequest): Promise<Page<AdminJobRow>> {
  let query = db.selectFrom('jobs').select(LISTED);
  if (filter.state) query = query.where('state', '=', filter.state);
  if (filter.kind) query = query.where('kind', '=', filter.kind);
  return offsetPage(db, query.orderBy('id', 'desc'), page);
}

/**
 * A failed job queued again to run now, with its full number of attempts; its last error stays
 * until it runs. Only a failed job: one queued or running is already on its way, and one done
 * has nothing left to do. The state is checked in the same statement that changes it, so two
 * administrators retrying at once queue it once.
 */
export async function retryJob(db: Db, id: number): Promise<AdminJobRow> {
  const now = nowIso();
  const row = await db
    .updateTable('jobs')
    .set({ state: 'pending', run_at: now, attempts: 0, locked_by: null, locked_until: null, updated_at: now })
    .where('id', '=', id)
    .where('state', '=', 'failed')
    .returning(LISTED)
    .executeTakeFirst();
  if (row) {
    jobEvents.emit('enqueued');
    return row;
  }
  const current = await db.selectFrom('jobs').select('state').where('id', '=', id).executeTakeFirst();
  if (!current) throw notFound('Job');
  throw conflict(`Only a failed job can be retried: this one is ${current.state === 'pending' ? 'queued' : current.state === 'done' ? 'done' : 'running'}`);
}

/** The jobs of one kind in one state, and how long the oldest has waited (see queueDepths). */
export interface QueueDepth {
  kind: string;
  state: Exclude<JobState, 'done'>;
  jobs: number;
  /** Seconds, never negative. */
  oldestAgeSeconds: number;
}

/**
 * What is queued, by kind and state, read when metrics are scraped: one grouped statement over
 * the unfinished and given-up jobs (done ones are history). The age of the oldest is, for a
 * pending or running job, the time since it became due (its run_at: a job scheduled for later
 * has not waited yet), and for a failed one the time since it gave up.
 */
export async function queueDepths(db: Db): Promise<QueueDepth[]> {
  const rows = await db
    .selectFrom('jobs')
    .select(['kind', 'state', (eb) => eb.fn.countAll().as('n'), (eb) => eb.fn.min('run_at').as('due'), (eb) => eb.fn.min('updated_at').as('changed')])
    .where('state', 'in', ['pending', 'running', 'failed'])
    .groupBy(['kind', 'state'])
    .execute();
  const now = Date.now();
  return rows.map((r) => {
    const since = r.state === 'failed' ? r.changed : r.due;
    return {
      kind: r.kind,
      state: r.state as QueueDepth['state'],
      jobs: Number(r.n),
      oldestAgeSeconds: since ? Math.max(0, (now - Date.parse(String(since))) / 1000) : 0,
    };
  });
}
