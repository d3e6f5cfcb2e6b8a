import { startSender } from '../outbound/sender.ts';
import { z } from 'zod';
import { hookDeliveryJob, purgeHookLogs } from '../services/webhooks/hook-delivery.ts';
import { purgeExpiredSessions } from '../services/access/session.ts';
import { purgeExpiredExports } from '../services/security/exports/exports.ts';
import { purgeStaleQuarantines } from '../services/git/repositories.ts';
import { exportJob } from '../services/security/exports/job.ts';
import { defineJob, type JobDefinition, type JobDeps } from '../queue/define.ts';
import { enqueue, purgeFinishedJobs } from '../queue/queue.ts';
import { startWorkers, type Workers } from '../queue/worker.ts';
import { mergeTrainJob, resumeTrains } from '../services/merging/trains/run.ts';
import { isoPlus, today } from '../util/time.ts';
import { autoMergeJob } from '../services/merging/auto-merge.ts';
import { advanceIterations } from '../services/planning/iteration-roll-over.ts';
import type { Db } from '../db/index.ts';
import type { JobRow } from '../db/schema.ts';

const HOUR = 3_600_000;

/**
 * The next run of a periodic job: the finished row gives up its unique key (this row only, so a
 * retried run whose successor is already queued queues no second one), and a new row takes it.
 */
async function runAgainIn(db: Db, job: JobRow, def: JobDefinition, key: string, ms: number): Promise<void> {
  await db.updateTable('jobs').set({ unique_key: null }).where('id', '=', job.id).where('unique_key', '=', key).execute();
  await enqueue(db, def, {}, { runAt: isoPlus(ms), uniqueKey: key });
}

/**
 * Hourly housekeeping: purges delivery logs past their retention, finished jobs, ended
 * sessions, expired exports and the quarantine folders of pushes killed mid-way (nothing
 * written in them for an hour), then schedules its next run (one row with a unique key,
 * whichever instance runs it).
 */
export const housekeepingJob = defineJob({
  kind: 'housekeeping',
  payload: z.object({}),
  leaseMs: () => 10 * 60_000,
  maxAttempts: 5,
  handler: async (_payload, { db, config, logger, job }) => {
    const logs = await purgeHookLogs(db, config.hookLogRetentionDays);
    const jobs = await purgeFinishedJobs(db, 24 * HOUR);
    const sessions = await purgeExpiredSessions(db);
    const exports = await purgeExpiredExports(db);
    const quarantines = await purgeStaleQuarantines(config.repositoriesDir, HOUR);
    logger.info({ logs, jobs, sessions, exports, quarantines }, 'housekeeping');
    await runAgainIn(db, job, housekeepingJob, 'housekeeping', HOUR);
  },
});

/**
 * Hourly, as days pass: iterations start and close on their dates, and the open issues of a
 * closed iteration of a cadence that rolls over move to its next iteration (see
 * iteration-roll-over.ts; safe to run twice, and on several instances at once).
 */
export const iterationsJob = defineJob({
  kind: 'iterations',
  /** `on`: the day to advance to, today by default (a catch-up or a test may name one). */
  payload: z.object({ on: z.string().regex(/^\d{4}-\d{2}-\d{2}$/).optional() }),
  leaseMs: () => 10 * 60_000,
  maxAttempts: 5,
  handler: async (payload, { db, logger, job }) => {
    const { scheduled, started, closed, rolledOver } = await advanceIterations(db, payload.on ?? today());
    logger.info({ scheduled, started, closed, rolled_over_issues: rolledOver.reduce((n, r) => n + r.issueIds.length, 0) }, 'iterations');
    await runAgainIn(db, job, iterationsJob, 'iterations', HOUR);
  },
});

/** The periodic jobs, each queued once (by its unique key) whichever instance starts first. */
const periodicJobs: [JobDefinition, string][] = [
  [housekeepingJob, 'housekeeping'],
  [iterationsJob, 'iterations'],
];

/** Every kind of job this process runs. */
export const jobDefinitions: JobDefinition[] = [hookDeliveryJob, housekeepingJob, iterationsJob, mergeTrainJob, autoMergeJob, exportJob];

export function startJobWorkers(deps: JobDeps): Workers {
  if (deps.config.workers === 0) return { stop: async () => undefined };
  for (const [def, key] of periodicJobs) void enqueue(deps.db, def, {}, { uniqueKey: key }).catch((e) => deps.logger.warn({ err: e }, `could not schedule ${key}`));
  // Deliveries go out on the sender thread: started now, so that the first one does not wait for it.
  startSender();
  // Trains a killed instance was driving go on (their lock frees itself once its lease runs out).
  void resumeTrains(deps.db).catch((e) => deps.logger.warn({ err: e }, 'could not resume the merge trains'));
  return startWorkers(deps, jobDefinitions, { count: deps.config.workers });
}
