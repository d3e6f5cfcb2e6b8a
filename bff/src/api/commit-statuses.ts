import { z } from 'zod';
import { commitStatus, commitStatusBody, commitStatusListQuery } from '../../../shared/src/commit-statuses.ts';
import { defineRoute, type RouteContext } from '../http/route.ts';
import { pageRequest } from '../db/pagination.ts';
import { DEFAULT_BRANCH, ensureRepository } from '../services/git/repositories.ts';
import * as statuses from '../services/ci/commit-statuses.ts';
import { presentCommitStatus } from '../presenters/commit-statuses.ts';
import { usersById } from '../services/access/users.ts';
import type { PipelineJobRow, UserRow } from '../db/schema.ts';

const area = 'commit-statuses';
type Ctx = RouteContext<unknown, unknown, unknown, 'project'>;

/** A commit in the path: a SHA (a name that cannot be one is a missing commit). */
const shaParam = { sha: z.string().min(1).max(64) };
const withRepository = {
  with: { dir: async (ctx: Ctx) => ensureRepository(ctx.db, ctx.config.repositoriesDir, ctx.project) },
};

/** Each status with its author, read once per page. */
async function withAuthors(ctx: Ctx, jobs: PipelineJobRow[]) {
  const users = await usersById(ctx.db, jobs.map((j) => j.user_id));
  return jobs.map((job) => ({ job, author: job.user_id === null ? null : (users.get(job.user_id) ?? null) }));
}
const present = (r: { job: PipelineJobRow; author: UserRow | null }, ctx: { baseUrl: string }) => presentCommitStatus(r.job, { baseUrl: ctx.baseUrl, author: r.author });

export const commitStatusRoutes = [
  defineRoute({
    method: 'post',
    path: '/projects/:id/statuses/:sha',
    area,
    summary:
      'An external CI reports a job on a commit (state: pending, running, success, failed, canceled, skipped); makes or moves the job and its pipeline (Developer)',
    load: 'project',
    permission: 'update_pipeline',
    params: shaParam,
    ...withRepository,
    body: commitStatusBody,
    response: commitStatus,
    handler: async (ctx) => {
      const job = await statuses.reportStatus(
        ctx.db,
        { scope: { project: ctx.project, group: ctx.group, baseUrl: ctx.baseUrl }, dir: ctx.dir, defaultBranch: ctx.project.default_branch ?? DEFAULT_BRANCH, user: ctx.actor.user },
        ctx.params.sha,
        ctx.body,
      );
      return (await withAuthors(ctx, [job]))[0];
    },
    present,
  }),
  defineRoute({
    method: 'get',
    path: '/projects/:id/repository/commits/:sha/statuses',
    area,
    summary: 'The statuses reported on a commit (the latest of each job unless all=true)',
    auth: 'optional',
    load: 'project',
    permission: 'read_pipeline',
    params: shaParam,
    ...withRepository,
    query: commitStatusListQuery,
    response: z.array(commitStatus),
    handler: async (ctx) => (await statuses.listStatuses(ctx.db, ctx.project, ctx.dir, ctx.params.sha, ctx.query, pageRequest(ctx.query))).mapAsync((jobs) => withAuthors(ctx, jobs)),
    present,
  }),
];
