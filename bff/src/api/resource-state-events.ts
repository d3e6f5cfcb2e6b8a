import { z } from 'zod';
import { resourceStateEvent } from '../../../shared/src/resource-state-events.ts';
import { paginationQuery } from '../../../shared/src/params.ts';
import { defineRoute } from '../http/route.ts';
import { recordId } from '../http/params.ts';
import { pageRequest } from '../db/pagination.ts';
import * as events from '../services/planning/resource-state-events.ts';
import type { StateEventView } from '../services/planning/resource-state-events.ts';
import { presentResourceStateEvent } from '../presenters/resource-state-events.ts';
import { issueLoader } from './issues.ts';
import { mergeRequestLoader } from './merge-requests.ts';

const area = 'resource-state-events';
const present = (v: StateEventView, ctx: { baseUrl: string }) => presentResourceStateEvent(v, ctx.baseUrl);
const eventId = { resource_state_event_id: recordId('Resource state event') };

export const resourceStateEventRoutes = [
  defineRoute({
    method: 'get',
    path: '/projects/:id/issues/:issue_iid/resource_state_events',
    area,
    summary: 'The state changes of an issue (close, reopen), oldest first; creation is not one',
    auth: 'optional',
    load: 'project',
    permission: 'read_project',
    ...issueLoader,
    query: paginationQuery,
    response: z.array(resourceStateEvent),
    handler: (ctx) => events.listStateEvents(ctx.db, { issue_id: ctx.issue.id }, pageRequest(ctx.query)),
    present,
  }),
  defineRoute({
    method: 'get',
    path: '/projects/:id/issues/:issue_iid/resource_state_events/:resource_state_event_id',
    area,
    summary: 'One state change of an issue',
    auth: 'optional',
    load: 'project',
    permission: 'read_project',
    params: { ...issueLoader.params, ...eventId },
    with: issueLoader.with,
    response: resourceStateEvent,
    handler: (ctx) => events.findStateEvent(ctx.db, { issue_id: ctx.issue.id }, ctx.params.resource_state_event_id),
    present,
  }),
  defineRoute({
    method: 'get',
    path: '/projects/:id/merge_requests/:merge_request_iid/resource_state_events',
    area,
    summary: 'The state changes of a merge request (close, reopen, merge), oldest first',
    auth: 'optional',
    load: 'project',
    permission: 'read_merge_request',
    ...mergeRequestLoader,
    query: paginationQuery,
    response: z.array(resourceStateEvent),
    handler: (ctx) => events.listStateEvents(ctx.db, { merge_request_id: ctx.mergeRequest.id }, pageRequest(ctx.query)),
    present,
  }),
  defineRoute({
    method: 'get',
    path: '/projects/:id/merge_requests/:merge_request_iid/resource_state_events/:resource_state_event_id',
    area,
    summary: 'One state change of a merge request',
    auth: 'optional',
    load: 'project',
    permission: 'read_merge_request',
    params: { ...mergeRequestLoader.params, ...eventId },
    with: mergeRequestLoader.with,
    response: resourceStateEvent,
    handler: (ctx) => events.findStateEvent(ctx.db, { merge_request_id: ctx.mergeRequest.id }, ctx.params.resource_state_event_id),
    present,
  }),
];
