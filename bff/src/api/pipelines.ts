import { z } from 'zod';
import { job, jobListQuery, pipeline, pipelineBasic, pipelineListQuery, pipelineVariable } from '../../../shared/src/pipelines.ts';
import { defineRoute, type RouteContext } from '../http/route.ts';
import { recordId } from '../http/params.ts';
import { pageRequest } from '../db/pagination.ts';
import * as pipelines from '../services/ci/pipelines.ts';
import { usersById } from '../services/access/users.ts';
import { presentJob, presentPipeline, presentPipelineBasic } from '../presenters/pipelines.ts';
import type { PipelineRow, UserRow } from '../db/schema.ts';

const area = 'pipelines';
const base = '/projects/:id/pipelines';

type Ctx = RouteContext<unknown, unknown, { pipeline_id: number }, 'project'>;
const urls = (ctx: { baseUrl: string; project: { path_with_namespace: string } }) => ({ baseUrl: ctx.baseUrl, projectUrl: `${ctx.baseUrl}/${ctx.project.path_with_namespace}` });
const scopeOf = (ctx: Ctx) => ({ project: ctx.project, group: ctx.group, baseUrl: ctx.baseUrl });

/** The pipeline named by :pipeline_id, among the project's own. */
const withPipeline = {
  params: { pipeline_id: recordId('Pipeline') },
  with: { pipeline: (ctx: Ctx) => pipelines.findPipeline(ctx.db, ctx.project, ctx.params.pipeline_id) },
};

const presentOne = (v: pipelines.PipelineView, ctx: Parameters<typeof urls>[0]) => presentPipeline(v, urls(ctx));

export const pipelineRoutes = [
  defineRoute({
    method: 'get',
    path: base,
    area,
    summary: 'List the project’s pipelines, newest first (filters: scope, status, source, ref, sha, username, updated_after/before; order_by, sort)',
    auth: 'optional',
    load: 'project',
    permission: 'read_pipeline',
    query: pipelineListQuery,
    response: z.array(pipelineBasic),
    handler: async (ctx) => pipelines.listPipelines(ctx.db, ctx.project, ctx.query, pageRequest(ctx.query)),
    present: (v, ctx) => presentPipelineBasic(v, urls(ctx)),
  }),
  defineRoute({
    method: 'get',
    path: `${base}/:pipeline_id`,
    area,
    summary: 'Get a pipeline',
    auth: 'optional',
    load: 'project',
    permission: 'read_pipeline',
    ...withPipeline,
    response: pipeline,
    handler: async (ctx) => pipelines.viewOf(ctx.db, ctx.pipeline),
    present: presentOne,
  }),
  defineRoute({
    method: 'get',
    path: `${base}/:pipeline_id/jobs`,
    area,
    summary: 'List a pipeline’s jobs (scope: their states; include_retried)',
    auth: 'optional',
    load: 'project',
    permission: 'read_pipeline',
    ...withPipeline,
    query: jobListQuery,
    response: z.array(job),
    handler: async (ctx) => {
      const page = await pipelines.listJobs(ctx.db, ctx.pipeline, ctx.query, pageRequest(ctx.query));
      const users = await usersById(ctx.db, page.items.map((j) => j.user_id));
      return page.map((j) => ({ job: j, user: j.user_id === null ? null : (users.get(j.user_id) ?? null), pipeline: ctx.pipeline }));
    },
    present: (r: { job: Parameters<typeof presentJob>[0]; user: UserRow | null; pipeline: PipelineRow }, ctx) => presentJob(r.job, { ...urls(ctx), pipeline: r.pipeline, user: r.user }),
  }),
  defineRoute({
    method: 'get',
    path: `${base}/:pipeline_id/variables`,
    area,
    summary: 'The variables a pipeline was started with (Developer)',
    load: 'project',
    permission: 'update_pipeline',
    ...withPipeline,
    response: z.array(pipelineVariable),
    handler: async (ctx) => pipelines.pipelineVariables(ctx.pipeline).map((v) => ({ key: v.key, value: v.value, variable_type: 'env_var' as const, raw: false })),
  }),
  defineRoute({
    method: 'post',
    path: `${base}/:pipeline_id/cancel`,
    area,
    summary: 'Cancel a pipeline’s jobs that are still waiting or running (Developer)',
    load: 'project',
    permission: 'update_pipeline',
    ...withPipeline,
    response: pipeline,
    handler: async (ctx) => pipelines.viewOf(ctx.db, await pipelines.cancelPipeline(ctx.db, scopeOf(ctx), ctx.pipeline)),
    present: presentOne,
  }),
  defineRoute({
    method: 'post',
    path: `${base}/:pipeline_id/retry`,
    area,
    summary: 'Retry a pipeline’s failed and canceled jobs: each waits (pending) for the external CI to report again (Developer)',
    load: 'project',
    permission: 'update_pipeline',
    ...withPipeline,
    response: pipeline,
    handler: async (ctx) => pipelines.viewOf(ctx.db, await pipelines.retryPipeline(ctx.db, scopeOf(ctx), ctx.pipeline, ctx.actor.user)),
    present: presentOne,
  }),
  defineRoute({
    method: 'delete',
    path: `${base}/:pipeline_id`,
    area,
    summary: 'Delete a pipeline and its jobs (Owner)',
    load: 'project',
    permission: 'destroy_pipeline',
    ...withPipeline,
    handler: async (ctx) => pipelines.deletePipeline(ctx.db, ctx.pipeline),
  }),
];
