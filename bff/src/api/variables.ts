import { z } from 'zod';
import { variable, variableCreateBody, variableFilterQuery, variableListQuery, variableUpdateBody } from '../../../shared/src/variables.ts';
import { defineRoute, type RouteContext } from '../http/route.ts';
import { recordKey } from '../http/params.ts';
import { pageRequest } from '../db/pagination.ts';
import * as variables from '../services/ci/variables.ts';
import { presentVariable } from '../presenters/variables.ts';
import type { TwinOwner, TwinScope } from '../db/twins.ts';

type Loaded = RouteContext<unknown, unknown, unknown, 'group' | 'project'>;
type Filter = { filter?: { environment_scope?: string } };

/**
 * Project and group CI/CD variables, written once (platform paths /projects/:id/variables and
 * /groups/:id/variables): every route needs a Maintainer of the project or an Owner of the group,
 * reads as well, since they answer the values.
 */
function makeVariableRoutes(scope: TwinScope) {
  const area = scope === 'groups' ? 'group-variables' : 'variables';
  const load = scope === 'groups' ? ('group' as const) : ('project' as const);
  const base = `/${scope}/:id/variables`;
  const what = scope === 'groups' ? 'group' : 'project';
  const role = scope === 'groups' ? 'Owner' : 'Maintainer';
  const owner = (ctx: Loaded): TwinOwner => ({ scope, id: scope === 'groups' ? ctx.group.id : ctx.project!.id });
  /**
   * :key, with `filter[environment_scope]` when several scopes hold it: in the query or the body,
   * a DELETE's body too (the platform reads parameters from either; gitbeaker sends a JSON body).
   */
  const withVariable = {
    params: { key: recordKey('Variable') },
    with: {
      variable: (ctx: Loaded & { params: { key: string }; query: unknown; body: unknown }) => {
        const sent = variableFilterQuery.safeParse(ctx.req.body ?? {});
        const filter = (ctx.body as Filter)?.filter ?? (ctx.query as Filter)?.filter ?? (sent.success ? sent.data.filter : undefined);
        return variables.findVariable(ctx.db, owner(ctx), ctx.params.key, filter?.environment_scope);
      },
    },
  };
  return [
    defineRoute({
      method: 'get',
      path: base,
      area,
      summary: `List the ${what}'s CI/CD variables (${role})`,
      load,
      permission: 'admin_cicd_variables',
      query: variableListQuery,
      response: z.array(variable),
      handler: async (ctx) => variables.listVariables(ctx.db, ctx.vault, owner(ctx), pageRequest(ctx.query)),
      present: presentVariable,
    }),
    defineRoute({
      method: 'get',
      path: `${base}/:key`,
      area,
      summary: `Get a ${what} CI/CD variable by key; filter[environment_scope] picks one of several scopes (${role})`,
      load,
      permission: 'admin_cicd_variables',
      query: variableFilterQuery,
      ...withVariable,
      response: variable,
      errors: [409],
      handler: async (ctx) => variables.viewVariable(ctx.vault, ctx.variable),
      present: presentVariable,
    }),
    defineRoute({
      method: 'post',
      path: base,
      area,
      summary: `Create a ${what} CI/CD variable (key, value; variable_type, protected, masked, masked_and_hidden, raw, environment_scope, description) (${role})`,
      load,
      permission: 'admin_cicd_variables',
      body: variableCreateBody,
      response: variable,
      handler: async (ctx) => variables.createVariable(ctx.db, ctx.vault, owner(ctx), ctx.body),
      present: presentVariable,
    }),
    defineRoute({
      method: 'put',
      path: `${base}/:key`,
      area,
      summary: `Update a ${what} CI/CD variable; filter[environment_scope] picks one of several scopes (${role})`,
      load,
      permission: 'admin_cicd_variables',
      ...withVariable,
      body: variableUpdateBody,
      response: variable,
      errors: [409],
      handler: async (ctx) => variables.updateVariable(ctx.db, ctx.vault, owner(ctx), ctx.variable, ctx.body),
      present: presentVariable,
    }),
    defineRoute({
      method: 'delete',
      path: `${base}/:key`,
      area,
      summary: `Delete a ${what} CI/CD variable; filter[environment_scope] picks one of several scopes (${role})`,
      load,
      permission: 'admin_cicd_variables',
      query: variableFilterQuery,
      ...withVariable,
      errors: [409],
      handler: async (ctx) => variables.deleteVariable(ctx.db, ctx.variable),
    }),
  ];
}

export const variableRoutes = [...makeVariableRoutes('projects'), ...makeVariableRoutes('groups')];
