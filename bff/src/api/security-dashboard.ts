import { z } from 'zod';
import { securityDashboardProject, securityDashboardProjectBody } from '../../../shared/src/security-reports.ts';
import { defineRoute } from '../http/route.ts';
import { recordId } from '../http/params.ts';
import { paginationQuery } from '../../../shared/src/params.ts';
import { pageRequest } from '../db/pagination.ts';
import * as dashboard from '../services/security/security-dashboard.ts';

const area = 'security-dashboard';
const base = '/security/dashboard/projects';

const present = (e: dashboard.DashboardEntry, ctx: { baseUrl: string }) => ({
  id: e.project.id,
  name: e.project.name,
  path_with_namespace: e.project.path_with_namespace,
  web_url: `${ctx.baseUrl}/${e.project.path_with_namespace}`,
  added_at: e.added_at,
});

/** The projects of the caller's instance security dashboard (ours: the platform keeps this list behind its UI). */
export const securityDashboardRoutes = [
  defineRoute({
    method: 'get',
    path: base,
    area,
    summary: 'The projects on the caller’s security dashboard whose vulnerabilities they may still read: those the instance-level vulnerability export covers',
    permission: 'read_self',
    query: paginationQuery,
    response: z.array(securityDashboardProject),
    handler: async (ctx) => dashboard.dashboardProjects(ctx.db, { ...ctx.actor, user: ctx.actor.user! }, pageRequest(ctx.query)),
    present,
  }),
  defineRoute({
    method: 'post',
    path: base,
    area,
    summary: 'Add a project to the caller’s security dashboard (project_id; one whose vulnerabilities the caller may read)',
    permission: 'read_self',
    body: securityDashboardProjectBody,
    response: securityDashboardProject,
    handler: async (ctx) => dashboard.addDashboardProject(ctx.db, { ...ctx.actor, user: ctx.actor.user! }, ctx.body.project_id),
    present,
  }),
  defineRoute({
    method: 'delete',
    path: `${base}/:project_id`,
    area,
    summary: 'Remove a project from the caller’s security dashboard',
    permission: 'read_self',
    params: { project_id: recordId('Project') },
    handler: async (ctx) => dashboard.removeDashboardProject(ctx.db, ctx.actor.user!.id, ctx.params.project_id),
  }),
];
