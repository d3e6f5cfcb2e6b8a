import { z } from 'zod';
import { epic, epicCreateBody, epicGetQuery, epicListQuery, epicUpdateBody, resourceStateEvent } from '../../../shared/src/epics.ts';
import { paginationQuery } from '../../../shared/src/params.ts';
import { defineRoute, allowed } from '../http/route.ts';
import { recordId } from '../http/params.ts';
import type { Db } from '../db/index.ts';
import type { EpicRow, GroupRow } from '../db/schema.ts';
import type { Actor } from '../auth/actor.ts';
import { pageRequest } from '../db/pagination.ts';
import * as epics from '../services/planning/epics.ts';
import { presentEpic, presentStateEvent } from '../presenters/epics.ts';
import { findStateEvent, listStateEvents } from '../services/planning/resource-state-events.ts';

const area = 'epics';

/** The epic named by :epic_iid in the loaded group. */
export const withEpic = {
  params: { epic_iid: recordId('Epic') },
  with: { epic: (ctx: { db: Db; actor: Actor; group: GroupRow; params: { epic_iid: number } }) => epics.getEpic(ctx.db, ctx.actor, ctx.group, ctx.params.epic_iid) },
};

/** One epic with what its presenter needs. */
const detailed = (db: Db, e: EpicRow) => epics.detailsOf(db, [e]).then((d) => d[0]);

/**
 * The epic named by :epic_id, its id (not its iid): how the platform's note, discussion and
 * resource event routes of epics address it, where the epic's own routes, its issues, links
 * and award emoji take :epic_iid.
 */
const withEpicById = {
  params: { epic_id: recordId('Epic') },
  with: { epic: (ctx: { db: Db; actor: Actor; group: GroupRow; params: { epic_id: number } }) => epics.getEpicById(ctx.db, ctx.actor, ctx.group, ctx.params.epic_id) },
};

type ViewContext = { baseUrl: string; group: GroupRow; actor: Actor; level: number; query?: { with_labels_details?: boolean } };
const view = (ctx: ViewContext, single = false) => ({ baseUrl: ctx.baseUrl, from: ctx.group, canEdit: allowed('admin_epic', ctx), single, labelDetails: ctx.query?.with_labels_details });

export const epicRoutes = [
  defineRoute({
    method: 'get',
    path: '/groups/:id/epics',
    area,
    summary: 'List a group’s epics (and its subgroups’, and with include_ancestor_groups its ancestors’); confidential ones for Reporters and up',
    // As on the platform (its epics API authenticates all but GET): anonymous callers read a public group's epics.
    auth: 'optional',
    load: 'group',
    permission: 'read_group',
    query: epicListQuery,
    response: z.array(epic),
    handler: async (ctx) => {
      const page = await epics.listEpics(ctx.db, ctx.actor, ctx.group, ctx.query, pageRequest(ctx.query));
      return page.mapAsync((rows) => epics.detailsOf(ctx.db, rows));
    },
    present: (e, ctx) => presentEpic(e, view(ctx)),
  }),
  defineRoute({
    method: 'get',
    path: '/groups/:id/epics/:epic_iid',
    area,
    summary: 'Get an epic (a confidential one for Reporters and up)',
    auth: 'optional',
    load: 'group',
    permission: 'read_group',
    ...withEpic,
    query: epicGetQuery,
    response: epic,
    handler: async (ctx) => detailed(ctx.db, ctx.epic),
    present: (e, ctx) => presentEpic(e, view(ctx, true)),
  }),
  defineRoute({
    method: 'post',
    path: '/groups/:id/epics',
    area,
    summary: 'Create an epic (Reporters and up; created_at from administrators and owners)',
    load: 'group',
    permission: 'admin_epic',
    body: epicCreateBody,
    response: epic,
    handler: async (ctx) => detailed(ctx.db, await epics.createEpic(ctx.db, { ...ctx.actor, user: ctx.actor.user! }, ctx.group, ctx.level, ctx.body)),
    present: (e, ctx) => presentEpic(e, view(ctx, true)),
  }),
  defineRoute({
    method: 'put',
    path: '/groups/:id/epics/:epic_iid',
    area,
    summary: 'Update an epic; state_event closes or reopens it',
    load: 'group',
    permission: 'admin_epic',
    ...withEpic,
    body: epicUpdateBody,
    response: epic,
    handler: async (ctx) => detailed(ctx.db, await epics.updateEpic(ctx.db, { ...ctx.actor, user: ctx.actor.user! }, ctx.group, ctx.epic, ctx.body)),
    present: (e, ctx) => presentEpic(e, view(ctx, true)),
  }),
  defineRoute({
    method: 'get',
    path: '/groups/:id/epics/:epic_id/resource_state_events',
    area: 'resource-state-events',
    summary: 'An epic’s state events (one per close or reopen), oldest first',
    load: 'group',
    permission: 'read_group',
    ...withEpicById,
    query: paginationQuery,
    response: z.array(resourceStateEvent),
    handler: (ctx) => listStateEvents(ctx.db, { epic_id: ctx.epic.id }, pageRequest(ctx.query)),
    present: ({ event, user }, ctx) => presentStateEvent(event, user, ctx.baseUrl),
  }),
  defineRoute({
    method: 'get',
    path: '/groups/:id/epics/:epic_id/resource_state_events/:resource_state_event_id',
    area: 'resource-state-events',
    summary: 'One state event of an epic',
    load: 'group',
    permission: 'read_group',
    params: { ...withEpicById.params, resource_state_event_id: recordId('Resource state event') },
    with: withEpicById.with,
    response: resourceStateEvent,
    handler: (ctx) => findStateEvent(ctx.db, { epic_id: ctx.epic.id }, ctx.params.resource_state_event_id),
    present: ({ event, user }, ctx) => presentStateEvent(event, user, ctx.baseUrl),
  }),
];
