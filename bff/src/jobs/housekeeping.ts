import { z } from 'zod';
import { defineJob } from '../queue/define.ts';
import { purgeFinishedJobs } from '../queue/queue.ts';
import { purgeHookLogs } from '../services/webhooks/hook-delivery.ts';
import { purgeExpiredSessions } from '../services/access/session.ts';
import { purgeExpiredExports } from '../services/security/exports/exports.ts';
import { purgeExpiredGroupExports } from '../services/transfer/group-export.ts';
import { purgeStaleQuarantines } from '../services/git/repositories.ts';
import { renumberAuthorEvents } from '../services/planning/events.ts';
import { purgeOldErrors } from '../services/error-tracking/errors.ts';
import { HOUR, runAgainIn } from './periodic.ts';

/**
 * Hourly housekeeping: purges delivery logs past their retention, finished jobs, ended
 * sessions, expired exports and group exports (and their files), stored files whose put never finished (a day
 * on) and the quarantine folders of pushes killed mid-way (nothing written in them for an
 * hour), numbers again the events of authors whose numbers have gaps
 * (a deleted project took some), drops tracked errors past their 90 days, then schedules its next run (one row with a unique key,
 * whichever instance runs it).
 */
export const housekeepingJob = defineJob({
  kind: 'housekeeping',
  payload: z.object({}),
  leaseMs: () => 10 * 60_000,
  maxAttempts: 5,
  handler: async (_payload, { db, files, config, logger, job }) => {
    const logs = await purgeHookLogs(db, config.hookLogRetentionDays);
    const jobs = await purgeFinishedJobs(db, 24 * HOUR);
    const sessions = await purgeExpiredSessions(db);
    const exports = (await purgeExpiredExports(db, files)) + (await purgeExpiredGroupExports(db, files));
    // Puts that never finished (their writer killed) a day on: a put in progress is never that old.
    const unfinishedFiles = await files.purgeOlderThan(new Date(Date.now() - 24 * HOUR), { incompleteOnly: true });
    const quarantines = await purgeStaleQuarantines(config.repositoriesDir, HOUR);
    const renumberedAuthors = await renumberAuthorEvents(db);
    const trackedErrors = await purgeOldErrors(db);
    logger.info({ logs, jobs, sessions, exports, unfinishedFiles, quarantines, renumberedAuthors, trackedErrors }, 'housekeeping');
    await runAgainIn(db, job, housekeepingJob, 'housekeeping', HOUR);
  },
});

