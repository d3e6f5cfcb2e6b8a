import type { Logger } from 'pino';
import type { DeliveryDeps } from '../services/hook-delivery.ts';
import { deliveryJobHandler, purgeHookLogs } from '../services/hook-delivery.ts';
import { purgeExpiredSessions } from '../services/session.ts';
import { enqueue, purgeFinishedJobs } from './queue.ts';
import { startWorkers, type Workers } from './worker.ts';
import { isoPlus } from '../util/time.ts';

const HOUR = 3_600_000;

/**
 * The job kinds this process runs: webhook deliveries, and an hourly housekeeping job that
 * purges delivery logs past their retention, finished jobs and ended sessions, then schedules
 * its next run (one row with a unique key, whichever instance runs it).
 */
export function startJobWorkers(deps: DeliveryDeps, logger: Logger): Workers {
  if (deps.config.workers === 0) return { stop: async () => undefined };
  const handlers = {
    hook_delivery: deliveryJobHandler(deps),
    housekeeping: async () => {
      const logs = await purgeHookLogs(deps.db, deps.config.hookLogRetentionDays);
      const jobs = await purgeFinishedJobs(deps.db, 24 * HOUR);
      const sessions = await purgeExpiredSessions(deps.db);
      logger.info({ logs, jobs, sessions }, 'housekeeping');
      await deps.db.updateTable('jobs').set({ unique_key: null }).where('unique_key', '=', 'housekeeping').execute();
      await enqueue(deps.db, 'housekeeping', {}, { runAt: isoPlus(HOUR), uniqueKey: 'housekeeping' });
    },
  };
  void enqueue(deps.db, 'housekeeping', {}, { uniqueKey: 'housekeeping' }).catch((e) => logger.warn({ err: e }, 'could not schedule housekeeping'));
  return startWorkers(deps.db, handlers, { count: deps.config.workers, leaseMs: 2 * deps.config.hookTimeoutMs + 5_000, logger });
}
