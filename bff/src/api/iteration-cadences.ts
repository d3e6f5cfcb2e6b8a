import { z } from 'zod';
import {
  cadenceIterationListQuery,
  iterationCadence,
  iterationCadenceCreateBody,
  iterationCadenceListQuery,
  iterationCadenceUpdateBody,
  iterationCreateBody,
  projectIteration,
} from '../../../shared/src/iterations.ts';
import { defineRoute, type RouteContext } from '../http/route.ts';
import { recordId } from '../http/params.ts';
import { pageRequest } from '../db/pagination.ts';
import * as cadences from '../services/planning/iteration-cadences.ts';
import { presentCadence, presentGroupIteration } from '../presenters/iteration-cadences.ts';

/**
 * Ours, not the platform's (which manages cadences over GraphQL only): a group's iteration
 * cadences and their iterations, for the console and for scripts.
 */
const area = 'iteration-cadences';
const base = '/groups/:id/iteration_cadences';
const withCadence = {
  params: { cadence_id: recordId('Iteration Cadence') },
  with: { cadence: (ctx: RouteContext<unknown, unknown, { cadence_id: number }, 'group'>) => cadences.getCadence(ctx.db, ctx.group, ctx.params.cadence_id) },
};

export const iterationCadenceRoutes = [
  defineRoute({
    method: 'get',
    path: base,
    area,
    summary: 'List the group’s iteration cadences (Gatehouse; the platform has GraphQL only)',
    auth: 'optional',
    load: 'group',
    permission: 'read_group',
    query: iterationCadenceListQuery,
    response: z.array(iterationCadence),
    handler: async (ctx) => cadences.listCadences(ctx.db, ctx.group, pageRequest(ctx.query)),
    present: presentCadence,
  }),
  defineRoute({
    method: 'get',
    path: `${base}/:cadence_id`,
    area,
    summary: 'Get an iteration cadence (Gatehouse)',
    auth: 'optional',
    load: 'group',
    permission: 'read_group',
    ...withCadence,
    response: iterationCadence,
    handler: async (ctx) => ctx.cadence,
    present: presentCadence,
  }),
  defineRoute({
    method: 'post',
    path: base,
    area,
    summary: 'Create an iteration cadence; an automatic one schedules its iterations (Gatehouse, Reporter)',
    load: 'group',
    permission: 'admin_milestones',
    body: iterationCadenceCreateBody,
    response: iterationCadence,
    handler: async (ctx) => cadences.createCadence(ctx.db, ctx.group, ctx.body),
    present: presentCadence,
  }),
  defineRoute({
    method: 'put',
    path: `${base}/:cadence_id`,
    area,
    summary: 'Update an iteration cadence (Gatehouse, Reporter)',
    load: 'group',
    permission: 'admin_milestones',
    ...withCadence,
    body: iterationCadenceUpdateBody,
    response: iterationCadence,
    handler: async (ctx) => cadences.updateCadence(ctx.db, ctx.cadence, ctx.body),
    present: presentCadence,
  }),
  defineRoute({
    method: 'delete',
    path: `${base}/:cadence_id`,
    area,
    summary: 'Delete an iteration cadence with its iterations (Gatehouse, Reporter)',
    load: 'group',
    permission: 'admin_milestones',
    ...withCadence,
    handler: async (ctx) => cadences.deleteCadence(ctx.db, ctx.cadence),
  }),
  defineRoute({
    method: 'get',
    path: `${base}/:cadence_id/iterations`,
    area,
    summary: 'List the iterations of a cadence (Gatehouse)',
    auth: 'optional',
    load: 'group',
    permission: 'read_group',
    ...withCadence,
    query: cadenceIterationListQuery,
    response: z.array(projectIteration),
    handler: async (ctx) => cadences.listCadenceIterations(ctx.db, ctx.cadence, ctx.query.state, pageRequest(ctx.query)),
    present: presentGroupIteration,
  }),
  defineRoute({
    method: 'post',
    path: `${base}/:cadence_id/iterations`,
    area,
    summary: 'Add an iteration to a cadence; dates may not overlap its others (Gatehouse, Reporter)',
    load: 'group',
    permission: 'admin_milestones',
    ...withCadence,
    body: iterationCreateBody,
    response: projectIteration,
    handler: async (ctx) => cadences.createIteration(ctx.db, ctx.cadence, ctx.body),
    present: presentGroupIteration,
  }),
];
