import { abilities } from '../../../shared/src/session.ts';
import { instanceOverview } from '../../../shared/src/instance.ts';
import { defineRoute, type RouteSpec } from '../http/route.ts';
import { canGroup, canProject, groupRules, projectRules, type GroupAction, type ProjectAction } from '../policies/index.ts';
import { instanceOverview as overview } from '../services/instance/instance.ts';
import { signInLimits } from '../services/access/session.ts';
import { maskCredentials } from '../presenters/admin-jobs.ts';

/**
 * The console's own endpoints under /api/console (not part of the platform API), declared like
 * the API's routes: the same authentication, loading, permission rules, typed client and tests.
 * Sign-in and sign-out stay in api/session.ts: they make and end the credential itself.
 */
export const consoleRoutes: RouteSpec[] = [
  // What the caller may do on a group or project, as Outline's policies ride with each object:
  // every action of the permission rules and whether the caller may take it. Unreadable
  // resources answer 404 like missing ones (the loading does that).
  defineRoute({
    mount: 'console',
    method: 'get',
    path: '/groups/:id/abilities',
    area: 'console',
    summary: "What the caller may do on a group (every action of the permission rules) and the caller's role",
    load: 'group',
    response: abilities,
    handler: async ({ actor, group, level }) => ({
      access_level: level,
      abilities: Object.fromEntries((Object.keys(groupRules) as GroupAction[]).map((a) => [a, canGroup(actor, a, { group, level })])),
    }),
  }),
  defineRoute({
    mount: 'console',
    method: 'get',
    path: '/projects/:id/abilities',
    area: 'console',
    summary: "What the caller may do on a project (every action of the permission rules) and the caller's role",
    load: 'project',
    response: abilities,
    handler: async ({ actor, group, project, level }) => ({
      access_level: level,
      abilities: Object.fromEntries((Object.keys(projectRules) as ProjectAction[]).map((a) => [a, canProject(actor, a, { group, project, level })])),
    }),
  }),
  defineRoute({
    mount: 'console',
    method: 'get',
    path: '/instance',
    area: 'console',
    summary: "The admin area's overview: counts, version, database, job queue, sign-in limits",
    permission: 'admin_instance',
    response: instanceOverview,
    handler: async ({ db, config }) => {
      const o = await overview(db);
      // The last failure's error as the Background jobs screen shows errors: credentials masked.
      const failure = o.jobs.last_failure;
      return {
        ...o,
        jobs: { ...o.jobs, last_failure: failure && { ...failure, error: failure.error === null ? null : maskCredentials(failure.error) } },
        sign_in: signInLimits({ hours: config.sessionHours, maxFailures: config.signInMaxFailures }),
      };
    },
  }),
];
