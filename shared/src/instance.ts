import { z } from './errors.ts';

/**
 * The administrator's instance overview (console endpoint `GET /api/console/instance`; the
 * platform shows the same in its admin area): version, database, sizes and the job queue.
 */
export const instanceOverview = z.object({
  version: z.string(),
  database: z.enum(['sqlite', 'postgresql']),
  counts: z.object({
    users: z.number().int(),
    bots: z.number().int(),
    blocked_users: z.number().int(),
    admins: z.number().int(),
    groups: z.number().int(),
    projects: z.number().int(),
    hooks: z.number().int(),
  }),
  jobs: z.object({
    /** Waiting to run, now or later (retries wait for their backoff). */
    pending: z.number().int(),
    running: z.number().int(),
    /** Gave up after their last attempt. */
    failed: z.number().int(),
    /** The run time of the longest-waiting job that is due: the queue's lag. */
    oldest_due_at: z.string().nullable(),
    last_failure: z.object({ kind: z.string(), error: z.string().nullable(), at: z.string() }).nullable(),
  }),
  /** Set by the configuration at start (GATEHOUSE_SIGNIN_MAX_FAILURES, GATEHOUSE_SESSION_HOURS), not writable here. */
  sign_in: z.object({
    max_failures_per_user: z.number().int(),
    max_failures_per_address: z.number().int(),
    window_minutes: z.number(),
    session_hours: z.number(),
  }),
});
export type InstanceOverview = z.infer<typeof instanceOverview>;
