import { z } from 'zod';
import { pipelineTrigger, pipelineTriggerBody, pipelineTriggerCreateBody, pipelineTriggerListQuery, pipelineTriggerUpdateBody } from '../../../shared/src/pipeline-triggers.ts';
import { pipeline } from '../../../shared/src/pipelines.ts';
import { defineRoute, type RouteContext } from '../http/route.ts';
import { recordId, recordKey } from '../http/params.ts';
import { pageRequest } from '../db/pagination.ts';
import { notFound } from '../util/errors.ts';
import { findProject } from '../services/groups/projects.ts';
import { ensureRepository } from '../services/git/repositories.ts';
import * as triggers from '../services/ci/pipeline-triggers.ts';
import { viewOf } from '../services/ci/pipelines.ts';
import { presentPipelineTrigger } from '../presenters/pipeline-triggers.ts';
import { presentPipeline } from '../presenters/pipelines.ts';

const area = 'pipeline-triggers';
const base = '/projects/:id/triggers';

/** The trigger named by :trigger_id, among the project's own. */
const withTrigger = {
  params: { trigger_id: recordId('Trigger') },
  with: { trigger: (ctx: RouteContext<unknown, unknown, { trigger_id: number }, 'project'>) => triggers.findTrigger(ctx.db, ctx.project, ctx.params.trigger_id) },
};

export const pipelineTriggerRoutes = [
  defineRoute({
    method: 'get',
    path: base,
    area,
    summary: 'List the project’s pipeline trigger tokens (Maintainer; the token whole to its owner, its first 4 characters to others)',
    load: 'project',
    permission: 'admin_pipeline_triggers',
    query: pipelineTriggerListQuery,
    response: z.array(pipelineTrigger),
    handler: async (ctx) => triggers.listTriggers(ctx.db, ctx.vault, ctx.actor.user, ctx.project, pageRequest(ctx.query)),
    present: presentPipelineTrigger,
  }),
  defineRoute({
    method: 'get',
    path: `${base}/:trigger_id`,
    area,
    summary: 'Get a pipeline trigger token',
    load: 'project',
    permission: 'admin_pipeline_triggers',
    ...withTrigger,
    response: pipelineTrigger,
    handler: async (ctx) => triggers.viewTrigger(ctx.db, ctx.vault, ctx.actor.user, ctx.trigger),
    present: presentPipelineTrigger,
  }),
  defineRoute({
    method: 'post',
    path: base,
    area,
    summary: 'Create a pipeline trigger token, owned by the caller',
    load: 'project',
    permission: 'admin_pipeline_triggers',
    body: pipelineTriggerCreateBody,
    response: pipelineTrigger,
    handler: async (ctx) => triggers.createTrigger(ctx.db, ctx.vault, ctx.actor.user!, ctx.project, ctx.body.description),
    present: presentPipelineTrigger,
  }),
  defineRoute({
    method: 'put',
    path: `${base}/:trigger_id`,
    area,
    summary: 'Change a pipeline trigger token’s description',
    load: 'project',
    permission: 'admin_pipeline_triggers',
    ...withTrigger,
    body: pipelineTriggerUpdateBody,
    response: pipelineTrigger,
    handler: async (ctx) => triggers.viewTrigger(ctx.db, ctx.vault, ctx.actor.user, await triggers.updateTrigger(ctx.db, ctx.trigger, ctx.body.description)),
    present: presentPipelineTrigger,
  }),
  defineRoute({
    method: 'delete',
    path: `${base}/:trigger_id`,
    area,
    summary: 'Revoke a pipeline trigger token',
    load: 'project',
    permission: 'admin_pipeline_triggers',
    ...withTrigger,
    handler: async (ctx) => triggers.deleteTrigger(ctx.db, ctx.trigger),
  }),
  defineRoute({
    method: 'post',
    path: '/projects/:id/trigger/pipeline',
    area,
    summary:
      'Trigger a pipeline with a trigger token (`token` as form field, query or JSON; `variables[NAME]`; `inputs` as JSON). The token is the credential: no other is needed. CI/CD job tokens are not supported',
    // The trigger token decides; a personal credential, if any, plays no part.
    auth: 'optional',
    scope: 'any',
    params: { id: recordKey('Project') },
    body: pipelineTriggerBody,
    multipart: true,
    response: pipeline,
    handler: async (ctx) => {
      const found = await findProject(ctx.db, ctx.params.id);
      if (!found) throw notFound('Project');
      const scope = { ...found, baseUrl: ctx.baseUrl };
      const dir = await ensureRepository(ctx.db, ctx.config.repositoriesDir, found.project);
      const made = await triggers.triggerPipeline({ db: ctx.db, scope, dir }, ctx.body);
      return { view: await viewOf(ctx.db, made), projectUrl: `${ctx.baseUrl}/${found.project.path_with_namespace}` };
    },
    present: (r, ctx) => presentPipeline(r.view, { baseUrl: ctx.baseUrl, projectUrl: r.projectUrl }),
  }),
];
