import { startSender } from '../outbound/sender.ts';
import { z } from 'zod';
import { hookDeliveryJob, purgeHookLogs } from '../services/hook-delivery.ts';
import { purgeExpiredSessions } from '../services/session.ts';
import { purgeExpiredExports } from '../services/exports.ts';
import { exportJob } from '../exports/job.ts';
import { defineJob, type JobDefinition, type JobDeps } from './define.ts';
import { enqueue, purgeFinishedJobs } from './queue.ts';
import { startWorkers, type Workers } from './worker.ts';
import { mergeTrainJob, resumeTrains } from '../trains/run.ts';
import { isoPlus } from '../util/time.ts';
import { autoMergeJob } from '../services/auto-merge.ts';

const HOUR = 3_600_000;

/**
 * Hourly housekeeping: purges delivery logs past their retention, finished jobs, ended
 * sessions and expired exports, then schedules its next run (one row with a unique key, whichever instance runs it).
 */
export const housekeepingJob = defineJob({
  kind: 'housekeeping',
  payload: z.object({}),
  leaseMs: () => 10 * 60_000,
  maxAttempts: 5,
  handler: async (_payload, { db, config, logger }) => {
    const logs = await purgeHookLogs(db, config.hookLogRetentionDays);
    const jobs = await purgeFinishedJobs(db, 24 * HOUR);
    const sessions = await purgeExpiredSessions(db);
    const exports = await purgeExpiredExports(db);
    logger.info({ logs, jobs, sessions, exports }, 'housekeeping');
    await db.updateTable('jobs').set({ unique_key: null }).where('unique_key', '=', 'housekeeping').execute();
    await enqueue(db, housekeepingJob, {}, { runAt: isoPlus(HOUR), uniqueKey: 'housekeeping' });
  },
});

/** Every kind of job this process runs. */
export const jobDefinitions: JobDefinition[] = [hookDeliveryJob, housekeepingJob, mergeTrainJob, autoMergeJob, exportJob];

export function startJobWorkers(deps: JobDeps): Workers {
  if (deps.config.workers === 0) return { stop: async () => undefined };
  void enqueue(deps.db, housekeepingJob, {}, { uniqueKey: 'housekeeping' }).catch((e) => deps.logger.warn({ err: e }, 'could not schedule housekeeping'));
  // Deliveries go out on the sender thread: started now, so that the first one does not wait for it.
  startSender();
  // Trains a killed instance was driving go on (their lock frees itself once its lease runs out).
  void resumeTrains(deps.db).catch((e) => deps.logger.warn({ err: e }, 'could not resume the merge trains'));
  return startWorkers(deps, jobDefinitions, { count: deps.config.workers });
}
