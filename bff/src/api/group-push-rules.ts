import { groupPushRule, groupPushRuleBody } from '../../../shared/src/group-push-rules.ts';
import { defineRoute } from '../http/route.ts';
import * as rules from '../services/group-push-rules.ts';
import { presentPushRule } from '../presenters/group-push-rules.ts';

const area = 'group-push-rules';
const path = '/groups/:id/push_rule';

export const groupPushRuleRoutes = [
  defineRoute({
    method: 'get',
    path,
    area,
    summary: 'Get the group’s push rule (404 when never configured)',
    load: 'group',
    permission: 'admin_group',
    response: groupPushRule,
    handler: async (ctx) => rules.findPushRule(ctx.db, ctx.group),
    present: presentPushRule,
  }),
  defineRoute({
    method: 'post',
    path,
    area,
    summary: 'Configure the group’s push rule (only when none exists)',
    load: 'group',
    permission: 'admin_group',
    body: groupPushRuleBody,
    response: groupPushRule,
    errors: [422],
    handler: async (ctx) => rules.createPushRule(ctx.db, ctx.group, ctx.body),
    present: presentPushRule,
  }),
  defineRoute({
    method: 'put',
    path,
    area,
    summary: 'Change the group’s push rule',
    load: 'group',
    permission: 'admin_group',
    body: groupPushRuleBody,
    response: groupPushRule,
    handler: async (ctx) => rules.updatePushRule(ctx.db, ctx.group, ctx.body),
    present: presentPushRule,
  }),
  defineRoute({
    method: 'delete',
    path,
    area,
    summary: 'Remove the group’s push rule',
    load: 'group',
    permission: 'admin_group',
    handler: async (ctx) => rules.deletePushRule(ctx.db, ctx.group),
  }),
];
