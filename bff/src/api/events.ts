import { z } from 'zod';
import { activityEvent, eventListQuery, ownEventListQuery } from '../../../shared/src/events.ts';
import { defineRoute } from '../http/route.ts';
import { recordKey } from '../http/params.ts';
import { pageRequest, type Page } from '../db/pagination.ts';
import type { Db } from '../db/index.ts';
import type { EventRow } from '../db/schema.ts';
import * as events from '../services/planning/events.ts';
import { presentEvent } from '../presenters/events.ts';

const area = 'events';
const response = z.array(activityEvent);
/** A page of events with their authors and targets, as the presenter needs them. */
const detailed = (db: Db, page: Page<EventRow>) => page.mapAsync((rows) => events.detailsOf(db, rows));

export const eventRoutes = [
  defineRoute({
    method: 'get',
    path: '/events',
    area,
    summary: 'The caller’s activity events (scope=all: those of all their projects)',
    scope: 'read_user',
    permission: 'read_self',
    query: ownEventListQuery,
    response,
    handler: async (ctx) => {
      return detailed(ctx.db, await events.listOwnEvents(ctx.db, { ...ctx.actor, user: ctx.actor.user! }, ctx.query, pageRequest(ctx.query)));
    },
    present: (e, ctx) => presentEvent(e, ctx.baseUrl),
  }),
  defineRoute({
    method: 'get',
    path: '/users/:user_id/events',
    area,
    summary: 'A user’s activity events in the projects the caller may read',
    auth: 'optional',
    scope: 'read_user',
    params: { user_id: recordKey('User') },
    query: eventListQuery,
    response,
    handler: async (ctx) => {
      const user = await events.userByIdOrUsername(ctx.db, ctx.params.user_id);
      return detailed(ctx.db, await events.listUserEvents(ctx.db, ctx.actor, user, ctx.query, pageRequest(ctx.query)));
    },
    present: (e, ctx) => presentEvent(e, ctx.baseUrl),
  }),
  defineRoute({
    method: 'get',
    path: '/projects/:id/events',
    area,
    summary: 'A project’s activity events',
    auth: 'optional',
    scope: 'read_user',
    load: 'project',
    permission: 'read_project',
    query: eventListQuery,
    response,
    handler: async (ctx) => detailed(ctx.db, await events.listProjectEvents(ctx.db, ctx.actor, { project: ctx.project, group: ctx.group, level: ctx.level }, ctx.query, pageRequest(ctx.query))),
    present: (e, ctx) => presentEvent(e, ctx.baseUrl, { projectListing: true }),
  }),
];
