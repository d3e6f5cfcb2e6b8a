import { z } from 'zod';
import { groupMilestone, groupMilestoneCreateBody, groupMilestoneListQuery, groupMilestoneUpdateBody, milestone, projectMilestone, type Milestone } from '../../../shared/src/group-milestones.ts';
import { burndownEvent } from '../../../shared/src/burndown.ts';
import { defineRoute, type RouteContext } from '../http/route.ts';
import { recordId } from '../http/params.ts';
import { pageRequest } from '../db/pagination.ts';
import type { TwinScope } from '../db/twins.ts';
import * as milestones from '../services/planning/milestones.ts';
import { burndownEvents } from '../services/planning/burndown.ts';
import { presentMilestone } from '../presenters/milestones.ts';
import type { Actor } from '../auth/actor.ts';
import { issue } from '../../../shared/src/issues.ts';
import { mergeRequestBasic } from '../../../shared/src/merge-requests.ts';
import { paginationQuery } from '../../../shared/src/params.ts';
import { milestoneIssues, milestoneMergeRequests } from '../services/planning/milestone-contents.ts';
import { presentIssue } from '../presenters/issues.ts';
import { presentMergeRequestBasic } from '../presenters/merge-requests.ts';

type Loaded = RouteContext<unknown, unknown, unknown, 'group' | 'project'>;
const who = (ctx: { actor: Actor; baseUrl: string }) => ({ user: ctx.actor.user, baseUrl: ctx.baseUrl });

/**
 * Group and project milestones, written once (platform paths /groups/:id/milestones and
 * /projects/:id/milestones): the same rules, presenter and lists of issues, merge requests and
 * burndown events. A project's list adds its groups' milestones with include_ancestors.
 */
function makeMilestoneRoutes(scope: TwinScope) {
  const area = scope === 'groups' ? 'group-milestones' : 'project-milestones';
  const load = scope === 'groups' ? ('group' as const) : ('project' as const);
  const base = `/${scope}/:id/milestones`;
  const what = scope === 'groups' ? 'group' : 'project';
  const read = scope === 'groups' ? ('read_group' as const) : ('read_project' as const);
  /** The one shape of the owner's own milestones; a project's list may mix in its groups'. */
  const one: z.ZodType<Milestone> = scope === 'groups' ? groupMilestone : projectMilestone;
  const of = (ctx: Loaded): milestones.MilestoneScope =>
    scope === 'groups' ? { owner: { scope, id: ctx.group.id }, group: ctx.group } : { owner: { scope, id: ctx.project!.id }, group: ctx.group, project: ctx.project };
  /** The milestone named by :milestone_id (its id, not its iid), among the owner's own. */
  const withMilestone = {
    params: { milestone_id: recordId('Milestone') },
    with: { milestone: (ctx: Loaded & { params: { milestone_id: number } }) => milestones.getMilestone(ctx.db, of(ctx), ctx.params.milestone_id) },
  };
  const contents = (ctx: Loaded) => ({ group: ctx.group, project: ctx.project });
  return [
    defineRoute({
      method: 'get',
      path: base,
      area,
      summary:
        scope === 'groups'
          ? 'List the group’s milestones (include_ancestors, include_descendants, state, title, search, search_title, iids, dates)'
          : 'List the project’s milestones, with its groups’ when include_ancestors (or include_parent_milestones) asks',
      auth: 'optional',
      load,
      permission: read,
      query: groupMilestoneListQuery,
      response: z.array(scope === 'groups' ? groupMilestone : milestone),
      handler: async (ctx) => milestones.listMilestones(ctx.db, of(ctx), ctx.query, pageRequest(ctx.query)),
      present: presentMilestone,
    }),
    defineRoute({
      method: 'get',
      path: `${base}/:milestone_id`,
      area,
      summary: `Get a ${what} milestone`,
      auth: 'optional',
      load,
      permission: read,
      ...withMilestone,
      response: one,
      handler: async (ctx) => ctx.milestone,
      present: presentMilestone,
    }),
    defineRoute({
      method: 'post',
      path: base,
      area,
      summary: `Create a ${what} milestone (Reporter)`,
      load,
      permission: 'admin_milestones',
      body: groupMilestoneCreateBody,
      response: one,
      handler: async (ctx) => milestones.createMilestone(ctx.db, of(ctx), ctx.body, who(ctx)),
      present: presentMilestone,
    }),
    defineRoute({
      method: 'put',
      path: `${base}/:milestone_id`,
      area,
      summary: `Update a ${what} milestone; state_event closes or activates it (Reporter)`,
      load,
      permission: 'admin_milestones',
      ...withMilestone,
      body: groupMilestoneUpdateBody,
      response: one,
      handler: async (ctx) => milestones.updateMilestone(ctx.db, of(ctx), ctx.milestone, ctx.body, who(ctx)),
      present: presentMilestone,
    }),
    defineRoute({
      method: 'delete',
      path: `${base}/:milestone_id`,
      area,
      summary: scope === 'groups' ? 'Delete a group milestone (Developer)' : 'Delete a project milestone (Reporter, as the platform’s admin_milestone)',
      load,
      permission: 'destroy_milestones',
      ...withMilestone,
      handler: async (ctx) => milestones.deleteMilestone(ctx.db, of(ctx), ctx.milestone, who(ctx)),
    }),
    defineRoute({
      method: 'get',
      path: `${base}/:milestone_id/issues`,
      area,
      summary: scope === 'groups' ? 'Issues of a group milestone (not those of subgroups’ projects)' : 'Issues of a project milestone',
      auth: 'optional',
      load,
      permission: read,
      ...withMilestone,
      query: paginationQuery,
      response: z.array(issue),
      handler: async (ctx) => milestoneIssues(ctx.db, contents(ctx), ctx.milestone, ctx.actor, ctx.level, pageRequest(ctx.query)),
      present: (v, ctx) => presentIssue(v, { baseUrl: ctx.baseUrl, project: v.project, group: v.namespace }),
    }),
    defineRoute({
      method: 'get',
      path: `${base}/:milestone_id/merge_requests`,
      area,
      summary: `Merge requests of a ${what} milestone`,
      auth: 'optional',
      load,
      permission: read,
      ...withMilestone,
      query: paginationQuery,
      response: z.array(mergeRequestBasic),
      handler: async (ctx) => milestoneMergeRequests(ctx.db, contents(ctx), ctx.milestone, ctx.actor, ctx.level, pageRequest(ctx.query)),
      present: (v, ctx) => presentMergeRequestBasic(v, { baseUrl: ctx.baseUrl, project: v.project, group: v.namespace }),
    }),
    defineRoute({
      method: 'get',
      path: `${base}/:milestone_id/burndown_events`,
      area,
      summary: `Burndown events of a ${what} milestone: its issues joining, leaving, closing, reopening and changing weight`,
      auth: 'optional',
      load,
      permission: read,
      ...withMilestone,
      response: z.array(burndownEvent),
      handler: async (ctx) => burndownEvents(ctx.db, ctx.milestone, ctx.actor),
    }),
  ];
}

export const groupMilestoneRoutes = [...makeMilestoneRoutes('groups'), ...makeMilestoneRoutes('projects')];
