import { z } from 'zod';
import { defineJob } from '../queue/define.ts';
import { today } from '../util/time.ts';
import { advanceIterations } from '../services/planning/iteration-roll-over.ts';
import { HOUR, runAgainIn } from './periodic.ts';

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

