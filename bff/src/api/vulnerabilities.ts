import { z } from 'zod';
import {
  vulnerability,
  vulnerabilityCommentBody,
  vulnerabilityDetail,
  vulnerabilityDismissBody,
  vulnerabilityListQuery,
} from '../../../shared/src/vulnerabilities.ts';
import { Answer, defineRoute, type RouteContext } from '../http/route.ts';
import { recordId } from '../http/params.ts';
import { pageRequest } from '../db/pagination.ts';
import type { VulnerabilityRow } from '../db/schema.ts';
import * as vulnerabilities from '../services/security/vulnerabilities.ts';
import { findProject } from '../services/groups/projects.ts';
import { projectAccessLevel } from '../policies/access.ts';
import { canProject } from '../policies/index.ts';
import { forbidden, notFound } from '../util/errors.ts';
import { presentTransition, presentVulnerability } from '../presenters/vulnerabilities.ts';

const area = 'vulnerabilities';

type ByIdCtx = RouteContext<unknown, unknown, { id: number }>;

/**
 * /vulnerabilities/:id names no project, so the route loads the vulnerability, then its
 * project, and checks the caller's role there: unreadable projects answer 404 as missing
 * vulnerabilities do; readable ones without the role answer 403.
 */
const byId = (action: 'read_vulnerability' | 'admin_vulnerability') => ({
  params: { id: recordId('Vulnerability') },
  with: {
    found: async (ctx: ByIdCtx) => {
      const v = await vulnerabilities.findVulnerability(ctx.db, ctx.params.id);
      const scope = await findProject(ctx.db, String(v.project_id));
      const level = scope ? await projectAccessLevel(ctx.db, ctx.actor.user?.id, scope.project, scope.group) : 0;
      if (!scope || !canProject(ctx.actor, 'read_project', { ...scope, level })) throw notFound('Vulnerability');
      if (!canProject(ctx.actor, 'read_vulnerability', { ...scope, level })) throw forbidden();
      if (!canProject(ctx.actor, action, { ...scope, level })) throw forbidden();
      return { vulnerability: v, ...scope };
    },
  },
});

type Found = { vulnerability: VulnerabilityRow; project: Parameters<typeof presentVulnerability>[1]['project']; group: Parameters<typeof presentVulnerability>[1]['group'] };
const presentFound = (f: Found, baseUrl: string) => presentVulnerability(f.vulnerability, { project: f.project, group: f.group, baseUrl });

const move = (action: vulnerabilities.VulnerabilityAction, summary: string, body: z.ZodType<{ comment?: string; dismissal_reason?: string }>) =>
  defineRoute({
    method: 'post',
    path: `/vulnerabilities/:id/${action}`,
    area,
    summary,
    ...byId('admin_vulnerability'),
    body,
    status: 201,
    errors: [304],
    response: vulnerability,
    handler: async (ctx) => {
      const b = ctx.body as { comment?: string; dismissal_reason?: 'acceptable_risk' };
      const moved = await vulnerabilities.transition(ctx.db, ctx.found.vulnerability, { action, actor: ctx.actor.user!, comment: b.comment, dismissalReason: b.dismissal_reason });
      // Already in that state: the platform's 304, without a body.
      if (!moved) return new Answer(undefined, 304);
      return new Answer({ ...ctx.found, vulnerability: moved }, 201);
    },
    present: (f, ctx) => presentFound(f!, ctx.baseUrl),
  });

export const vulnerabilityRoutes = [
  defineRoute({
    method: 'get',
    path: '/projects/:id/vulnerabilities',
    area,
    summary: 'List a project’s vulnerabilities, most severe first (filters, as lists: severity, state, report_type, scanner) (Developer)',
    load: 'project',
    permission: 'read_vulnerability',
    query: vulnerabilityListQuery,
    response: z.array(vulnerability),
    handler: async (ctx) => vulnerabilities.listVulnerabilities(ctx.db, ctx.project.id, ctx.query, pageRequest(ctx.query)),
    present: (v, ctx) => presentVulnerability(v, { project: ctx.project, group: ctx.group, baseUrl: ctx.baseUrl }),
  }),
  defineRoute({
    method: 'get',
    path: '/vulnerabilities/:id',
    area,
    summary: 'Get a vulnerability, with its finding and its state history (Developer of its project)',
    ...byId('read_vulnerability'),
    response: vulnerabilityDetail,
    handler: async (ctx) => ({
      ...presentFound(ctx.found, ctx.baseUrl),
      state_transitions: (await vulnerabilities.transitionsOf(ctx.db, ctx.found.vulnerability.id)).map((t) => presentTransition(t.transition, t.author)),
    }),
  }),
  move('confirm', 'Confirm a vulnerability (optional comment); 304 when already confirmed (Maintainer)', vulnerabilityCommentBody),
  move('dismiss', 'Dismiss a vulnerability with a dismissal_reason (acceptable_risk, false_positive, mitigating_control, used_in_tests, not_applicable) and a comment; 304 when already dismissed (Maintainer)', vulnerabilityDismissBody),
  move('resolve', 'Resolve a vulnerability (optional comment); 304 when already resolved (Maintainer)', vulnerabilityCommentBody),
  move('revert', 'Revert a vulnerability to detected (optional comment); 304 when already detected (Maintainer)', vulnerabilityCommentBody),
];

/**
 * The console's group and security dashboard vulnerability reports (/api/console): the platform
 * lists these only through its GraphQL API, and the spec has no REST route for them. The same
 * filters as the project's list; each vulnerability names its project.
 */
export const vulnerabilityConsoleRoutes = [
  defineRoute({
    mount: 'console',
    method: 'get',
    path: '/groups/:id/vulnerabilities',
    area,
    summary: 'List the vulnerabilities of every project of a group and its subgroups that the caller may read, most severe first (the project list’s filters) (Developer)',
    load: 'group',
    permission: 'read_vulnerability',
    query: vulnerabilityListQuery,
    response: z.array(vulnerability),
    handler: async (ctx) => vulnerabilities.listGroupVulnerabilities(ctx.db, ctx.actor, ctx.group, ctx.query, pageRequest(ctx.query)),
    present: (f, ctx) => presentVulnerability(f.vulnerability, { project: f.project, group: f.group, baseUrl: ctx.baseUrl }),
  }),
  defineRoute({
    mount: 'console',
    method: 'get',
    path: '/security/vulnerabilities',
    area,
    summary: 'List the vulnerabilities of the projects on the caller’s security dashboard that they may read, most severe first (the project list’s filters): what its export covers',
    permission: 'read_self',
    query: vulnerabilityListQuery,
    response: z.array(vulnerability),
    handler: async (ctx) => vulnerabilities.listDashboardVulnerabilities(ctx.db, { ...ctx.actor, user: ctx.actor.user! }, ctx.query, pageRequest(ctx.query)),
    present: (f, ctx) => presentVulnerability(f.vulnerability, { project: f.project, group: f.group, baseUrl: ctx.baseUrl }),
  }),
];
