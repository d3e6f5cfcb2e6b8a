import { z } from './errors.ts';
import { paginationQuery } from './params.ts';

/*
 * The admin area's view of the background job queue (console endpoints under
 * /api/console/admin/jobs): how many jobs are in each state, the jobs themselves, and a retry
 * for those that gave up. The queue's own words are kept: `pending` is what the console calls
 * "Queued" (waiting to run, now or after a retry's back-off).
 */

export const JOB_STATES = ['pending', 'running', 'failed', 'done'] as const;
export const jobState = z.enum(JOB_STATES);
export type JobState = z.infer<typeof jobState>;

/** GET /api/console/admin/jobs: newest first, filtered by state and kind. */
export const adminJobsQuery = paginationQuery.extend({
  state: jobState.optional(),
  kind: z.string().min(1).max(100).optional(),
});
export type AdminJobsQuery = z.infer<typeof adminJobsQuery>;

/** One job as an administrator sees it: no payload (it may name hooks and their targets), the last error with credentials masked. */
export const adminJob = z.object({
  id: z.number().int(),
  kind: z.string(),
  state: jobState,
  /** Attempts started so far, and how many the job gets before it gives up. */
  attempts: z.number().int(),
  max_attempts: z.number().int(),
  /** When it runs (next, for a queued job waiting out a retry's back-off). */
  run_at: z.string(),
  /** Until when its worker holds it, for a running job. */
  locked_until: z.string().nullable(),
  /** What its last failed attempt said: the message and where it was thrown, with URLs' credentials and query strings and token-like values masked. */
  last_error: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type AdminJob = z.infer<typeof adminJob>;

/** GET /api/console/admin/jobs/summary: counts by state, and every kind the table holds (for the filter). */
export const adminJobsSummary = z.object({
  counts: z.object({ pending: z.number().int(), running: z.number().int(), failed: z.number().int(), done: z.number().int() }),
  kinds: z.array(z.string()),
});
export type AdminJobsSummary = z.infer<typeof adminJobsSummary>;
