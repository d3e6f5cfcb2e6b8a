import { z } from 'zod';
import { groupMilestone, groupMilestoneCreateBody, groupMilestoneListQuery, groupMilestoneUpdateBody } from '../../../shared/src/group-milestones.ts';
import { burndownEvent } from '../../../shared/src/burndown.ts';
import { defineRoute, type RouteContext } from '../http/route.ts';
import { recordId } from '../http/params.ts';
import { pageRequest } from '../db/pagination.ts';
import * as milestones from '../services/planning/group-milestones.ts';
import { burndownEvents } from '../services/planning/burndown.ts';
import { presentGroupMilestone } from '../presenters/group-milestones.ts';
import type { Actor } from '../auth/actor.ts';
import { issue } from '../../../shared/src/issues.ts';
import { mergeRequestBasic } from '../../../shared/src/merge-requests.ts';
import { paginationQuery } from '../../../shared/src/params.ts';
import { milestoneIssues, milestoneMergeRequests } from '../services/planning/milestone-contents.ts';
import { presentIssue } from '../presenters/issues.ts';
import { presentMergeRequestBasic } from '../presenters/merge-requests.ts';

const area = 'group-milestones';
const base = '/groups/:id/milestones';
/** The milestone named by :milestone_id (its id, not its iid), among the group's own. */
const withMilestone = {
  params: { milestone_id: recordId('Milestone') },
  with: { milestone: (ctx: RouteContext<unknown, unknown, { milestone_id: number }, 'group'>) => milestones.getGroupMilestone(ctx.db, ctx.group, ctx.params.milestone_id) },
};
const who = (ctx: { actor: Actor; baseUrl: string }) => ({ user: ctx.actor.user, baseUrl: ctx.baseUrl });

export const groupMilestoneRoutes = [
  defineRoute({
    method: 'get',
    path: base,
    area,
    summary: 'List the group’s milestones',
    auth: 'optional',
    load: 'group',
    permission: 'read_group',
    query: groupMilestoneListQuery,
    response: z.array(groupMilestone),
    handler: async (ctx) => milestones.listGroupMilestones(ctx.db, ctx.group, ctx.query, pageRequest(ctx.query)),
    present: presentGroupMilestone,
  }),
  defineRoute({
    method: 'get',
    path: `${base}/:milestone_id`,
    area,
    summary: 'Get a group milestone',
    auth: 'optional',
    load: 'group',
    permission: 'read_group',
    ...withMilestone,
    response: groupMilestone,
    handler: async (ctx) => ctx.milestone,
    present: presentGroupMilestone,
  }),
  defineRoute({
    method: 'post',
    path: base,
    area,
    summary: 'Create a group milestone (Reporter)',
    load: 'group',
    permission: 'admin_milestones',
    body: groupMilestoneCreateBody,
    response: groupMilestone,
    handler: async (ctx) => milestones.createGroupMilestone(ctx.db, ctx.group, ctx.body, who(ctx)),
    present: presentGroupMilestone,
  }),
  defineRoute({
    method: 'put',
    path: `${base}/:milestone_id`,
    area,
    summary: 'Update a group milestone; state_event closes or activates it (Reporter)',
    load: 'group',
    permission: 'admin_milestones',
    ...withMilestone,
    body: groupMilestoneUpdateBody,
    response: groupMilestone,
    handler: async (ctx) => milestones.updateGroupMilestone(ctx.db, ctx.group, ctx.milestone, ctx.body, who(ctx)),
    present: presentGroupMilestone,
  }),
  defineRoute({
    method: 'delete',
    path: `${base}/:milestone_id`,
    area,
    summary: 'Delete a group milestone (Developer)',
    load: 'group',
    permission: 'destroy_milestones',
    ...withMilestone,
    handler: async (ctx) => milestones.deleteGroupMilestone(ctx.db, ctx.group, ctx.milestone, who(ctx)),
  }),
  defineRoute({
    method: 'get',
    path: `${base}/:milestone_id/issues`,
    area,
    summary: 'Issues of a group milestone (not those of subgroups’ projects)',
    auth: 'optional',
    load: 'group',
    permission: 'read_group',
    ...withMilestone,
    query: paginationQuery,
    response: z.array(issue),
    handler: async (ctx) => milestoneIssues(ctx.db, ctx.group, ctx.milestone, ctx.actor, ctx.level, pageRequest(ctx.query)),
    present: (v, ctx) => presentIssue(v, { baseUrl: ctx.baseUrl, project: v.project, group: v.namespace }),
  }),
  defineRoute({
    method: 'get',
    path: `${base}/:milestone_id/merge_requests`,
    area,
    summary: 'Merge requests of a group milestone',
    auth: 'optional',
    load: 'group',
    permission: 'read_group',
    ...withMilestone,
    query: paginationQuery,
    response: z.array(mergeRequestBasic),
    handler: async (ctx) => milestoneMergeRequests(ctx.db, ctx.group, ctx.milestone, ctx.actor, ctx.level, pageRequest(ctx.query)),
    present: (v, ctx) => presentMergeRequestBasic(v, { baseUrl: ctx.baseUrl, project: v.project, group: v.namespace }),
  }),
  defineRoute({
    method: 'get',
    path: `${base}/:milestone_id/burndown_events`,
    area,
    summary: 'Burndown events of a group milestone: its issues joining, leaving, closing, reopening and changing weight',
    auth: 'optional',
    load: 'group',
    permission: 'read_group',
    ...withMilestone,
    response: z.array(burndownEvent),
    handler: async (ctx) => burndownEvents(ctx.db, ctx.milestone, ctx.actor),
  }),
];
