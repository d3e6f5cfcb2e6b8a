import { z } from 'zod';
import {
  registryProtectionRule,
  registryProtectionRuleCreateBody,
  registryProtectionRuleUpdateBody,
} from '../../../shared/src/container-registry-protection.ts';
import { defineRoute, type RouteContext } from '../http/route.ts';
import { recordId } from '../http/params.ts';
import * as rules from '../services/registry/protection-rules.ts';
import { presentRegistryProtectionRule } from '../presenters/container-registry-protection.ts';

/** The spec's slug for the area (endpoints.tsv), as the files are named. */
const area = 'container-registry-protection';
const base = '/projects/:id/registry/protection/repository/rules';

/** The rule named by :protection_rule_id, among the project's own (else the platform's plain 404). */
const withRule = {
  params: { protection_rule_id: recordId() },
  with: { rule: (ctx: RouteContext<unknown, unknown, { protection_rule_id: number }, 'project'>) => rules.getRule(ctx.db, ctx.project.id, ctx.params.protection_rule_id) },
};

export const registryProtectionRuleRoutes = [
  defineRoute({
    method: 'get',
    path: base,
    area,
    summary: 'List the project’s container repository protection rules (Maintainer)',
    load: 'project',
    permission: 'admin_container_image',
    response: z.array(registryProtectionRule),
    handler: async (ctx) => rules.listRules(ctx.db, ctx.project.id),
    present: presentRegistryProtectionRule,
  }),
  defineRoute({
    method: 'post',
    path: base,
    area,
    summary: 'Protect container repositories: a path pattern (the project’s full path first, `*` wildcards) and the least role to push and/or delete (maintainer, owner, admin); 422 when the pattern is invalid or taken (Maintainer)',
    load: 'project',
    permission: 'admin_container_image',
    body: registryProtectionRuleCreateBody,
    status: 201,
    response: registryProtectionRule,
    errors: [422],
    handler: async (ctx) => rules.createRule(ctx.db, ctx.project, ctx.body),
    present: presentRegistryProtectionRule,
  }),
  defineRoute({
    method: 'patch',
    path: `${base}/:protection_rule_id`,
    area,
    summary: 'Change a container repository protection rule; an empty string unsets a level, and one must remain (422) (Maintainer)',
    load: 'project',
    permission: 'admin_container_image',
    ...withRule,
    body: registryProtectionRuleUpdateBody,
    response: registryProtectionRule,
    errors: [422],
    handler: async (ctx) => rules.updateRule(ctx.db, ctx.project, ctx.rule, ctx.body),
    present: presentRegistryProtectionRule,
  }),
  defineRoute({
    method: 'delete',
    path: `${base}/:protection_rule_id`,
    area,
    summary: 'Delete a container repository protection rule (Maintainer)',
    load: 'project',
    permission: 'admin_container_image',
    ...withRule,
    handler: async (ctx) => rules.deleteRule(ctx.db, ctx.rule),
  }),
];
