import { groupPushRule, groupPushRuleBody } from '../../../shared/src/group-push-rules.ts';
import { projectPushRule } from '../../../shared/src/project-push-rules.ts';
import { defineRoute, type RouteContext } from '../http/route.ts';
import type { TwinOwner, TwinScope } from '../db/twins.ts';
import * as rules from '../services/git/group-push-rules.ts';
import { presentProjectPushRule, presentPushRule } from '../presenters/group-push-rules.ts';

type Loaded = RouteContext<unknown, unknown, unknown, 'group' | 'project'>;
const owner = (scope: TwinScope, ctx: Loaded): TwinOwner => ({ scope, id: scope === 'groups' ? ctx.group.id : ctx.project!.id });

/** The push rule of a group (Owner) or a project (Maintainer), written once. */
export function makePushRuleRoutes(scope: TwinScope) {
  const what = scope === 'groups' ? 'group' : 'project';
  const common = {
    area: `${what}-push-rules`,
    path: `/${scope}/:id/push_rule`,
    load: scope === 'groups' ? ('group' as const) : ('project' as const),
    permission: scope === 'groups' ? ('admin_group' as const) : ('admin_project' as const),
  };
  const shape = { response: scope === 'groups' ? groupPushRule : projectPushRule, present: scope === 'groups' ? presentPushRule : presentProjectPushRule };
  return [
    // The twins differ here, as on the platform: a group without a rule is a 404, a project's answer is null.
    scope === 'groups'
      ? defineRoute({
          ...common,
          ...shape,
          method: 'get',
          summary: 'Get the group’s push rule (404 when never configured)',
          handler: async (ctx) => rules.findPushRule(ctx.db, owner(scope, ctx)),
        })
      : defineRoute({
          ...common,
          method: 'get',
          summary: 'Get the project’s push rule (200 with null when it has none)',
          response: projectPushRule.nullable(),
          handler: async (ctx) => (await rules.pushRuleOf(ctx.db, owner(scope, ctx))) ?? null,
          present: (rule) => (rule ? presentProjectPushRule(rule) : null),
        }),
    defineRoute({
      ...common,
      ...shape,
      method: 'post',
      summary: `Configure the ${what}’s push rule (only when none exists)`,
      body: groupPushRuleBody,
      errors: [422],
      handler: async (ctx) => rules.createPushRule(ctx.db, owner(scope, ctx), ctx.body),
    }),
    defineRoute({
      ...common,
      ...shape,
      method: 'put',
      summary: `Change the ${what}’s push rule`,
      body: groupPushRuleBody,
      handler: async (ctx) => rules.updatePushRule(ctx.db, owner(scope, ctx), ctx.body),
    }),
    defineRoute({
      ...common,
      method: 'delete',
      summary: `Remove the ${what}’s push rule`,
      handler: async (ctx) => rules.deletePushRule(ctx.db, owner(scope, ctx)),
    }),
  ];
}

export const groupPushRuleRoutes = makePushRuleRoutes('groups');
