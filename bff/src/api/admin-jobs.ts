import { z } from 'zod';
import { adminJob, adminJobsQuery, adminJobsSummary } from '../../../shared/src/admin-jobs.ts';
import { pageRequest } from '../db/pagination.ts';
import { defineRoute } from '../http/route.ts';
import { recordId } from '../http/params.ts';
import { presentAdminJob } from '../presenters/admin-jobs.ts';
import { jobsSummary, listJobs, retryJob } from '../queue/admin.ts';

const area = 'console';

/** The console's own: the admin area's Background jobs screen, for administrators. */
export const adminJobRoutes = [
  defineRoute({
    mount: 'console',
    method: 'get',
    path: '/admin/jobs/summary',
    area,
    summary: 'The background job queue at a glance: how many jobs are queued, running, failed and done, and every kind the table holds',
    permission: 'admin_instance',
    response: adminJobsSummary,
    handler: async (ctx) => jobsSummary(ctx.db),
  }),
  defineRoute({
    mount: 'console',
    method: 'get',
    path: '/admin/jobs',
    area,
    summary: 'Background jobs, newest first, filtered by state and kind, with their attempts, times and last error (credentials masked)',
    permission: 'admin_instance',
    query: adminJobsQuery,
    response: z.array(adminJob),
    handler: async (ctx) => listJobs(ctx.db, ctx.query, pageRequest(ctx.query)),
    present: presentAdminJob,
  }),
  defineRoute({
    mount: 'console',
    method: 'post',
    path: '/admin/jobs/:job_id/retry',
    area,
    summary: 'Queue a failed job again, to run now with its full number of attempts (409 for a job that has not failed)',
    permission: 'admin_instance',
    params: { job_id: recordId('Job') },
    status: 200,
    response: adminJob,
    errors: [404, 409],
    handler: async (ctx) => retryJob(ctx.db, ctx.params.job_id),
    present: presentAdminJob,
  }),
];
