import { z } from 'zod';
import { resourceIterationEvent } from '../../../shared/src/resource-iteration-events.ts';
import { paginationQuery } from '../../../shared/src/params.ts';
import { defineRoute } from '../http/route.ts';
import { recordId } from '../http/params.ts';
import { pageRequest } from '../db/pagination.ts';
import * as events from '../services/planning/resource-iteration-events.ts';
import { presentResourceIterationEvent } from '../presenters/resource-iteration-events.ts';
import { issueLoader } from './issues.ts';

/** The platform's "Resource iteration events" of issues: who put an issue in or took it out of an iteration, and when. */
const area = 'resource-iteration-events';

export const resourceIterationEventRoutes = [
  defineRoute({
    method: 'get',
    path: '/projects/:id/issues/:issue_iid/resource_iteration_events',
    area,
    summary: 'The iteration changes of an issue (add, remove; a roll-over is both, without a user), oldest first',
    auth: 'optional',
    load: 'project',
    permission: 'read_project',
    ...issueLoader,
    query: paginationQuery,
    response: z.array(resourceIterationEvent),
    handler: (ctx) => events.listIterationEvents(ctx.db, ctx.issue.id, pageRequest(ctx.query)),
    present: (v, ctx) => presentResourceIterationEvent(v, ctx.baseUrl),
  }),
  defineRoute({
    method: 'get',
    path: '/projects/:id/issues/:issue_iid/resource_iteration_events/:resource_iteration_event_id',
    area,
    summary: 'One iteration change of an issue',
    auth: 'optional',
    load: 'project',
    permission: 'read_project',
    params: { ...issueLoader.params, resource_iteration_event_id: recordId('Resource iteration event') },
    with: issueLoader.with,
    response: resourceIterationEvent,
    handler: (ctx) => events.findIterationEvent(ctx.db, ctx.issue.id, ctx.params.resource_iteration_event_id),
    present: (v, ctx) => presentResourceIterationEvent(v, ctx.baseUrl),
  }),
];
