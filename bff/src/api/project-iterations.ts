import { z } from 'zod';
import { projectIteration, projectIterationListQuery } from '../../../shared/src/iterations.ts';
import { defineRoute } from '../http/route.ts';
import { pageRequest } from '../db/pagination.ts';
import { listProjectIterations } from '../services/planning/project-iterations.ts';
import { presentIteration } from '../presenters/project-iterations.ts';

export const projectIterationRoutes = [
  defineRoute({
    method: 'get',
    path: '/projects/:id/iterations',
    area: 'project-iterations',
    summary: 'List the iterations of the project’s groups',
    auth: 'optional',
    load: 'project',
    permission: 'read_project',
    query: projectIterationListQuery,
    response: z.array(projectIteration),
    handler: async (ctx) => listProjectIterations(ctx.db, ctx.group, ctx.query, pageRequest(ctx.query)),
    present: presentIteration,
  }),
];
