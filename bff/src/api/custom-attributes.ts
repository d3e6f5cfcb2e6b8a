import { z } from 'zod';
import { customAttribute, customAttributeBody, customAttributeKey } from '../../../shared/src/custom-attributes.ts';
import { defineRoute, type LoadKind, type ParamShape, type ParamsOf, type RouteContext } from '../http/route.ts';
import { recordId } from '../http/params.ts';
import { getUser } from '../services/access/users.ts';
import * as attributes from '../services/instance/custom-attributes.ts';

const area = 'custom-attributes';

/** Where a custom attribute belongs: the model type, and how the route finds the model's id. */
interface Target<P extends ParamShape, L extends LoadKind | undefined> {
  resource: 'users' | 'groups' | 'projects';
  type: attributes.ModelType;
  load?: L;
  /** The path's :id when the route does not load it (users). */
  params: P;
  modelId: (ctx: RouteContext<unknown, unknown, ParamsOf<P>, L>) => Promise<number>;
}

/** Custom attributes of users, groups and projects, written once for the three (administrators only). */
function makeCustomAttributeRoutes<P extends ParamShape, L extends LoadKind | undefined>(target: Target<P, L>) {
  const { type } = target;
  const base = `/${target.resource}/:id/custom_attributes`;
  const common = { area, load: target.load, permission: 'admin_instance' as const, params: target.params, with: { modelId: target.modelId } };
  const withKey = { ...common, params: { ...target.params, key: customAttributeKey } };
  return [
    defineRoute({
      ...common,
      method: 'get',
      path: base,
      summary: `List a ${type}'s custom attributes (administrators)`,
      response: z.array(customAttribute),
      handler: async (ctx) => attributes.listCustomAttributes(ctx.db, type, ctx.modelId),
    }),
    defineRoute({
      ...withKey,
      method: 'get',
      path: `${base}/:key`,
      summary: `Get one custom attribute of a ${type}`,
      response: customAttribute,
      handler: async (ctx) => attributes.getCustomAttribute(ctx.db, type, ctx.modelId, ctx.params.key),
    }),
    defineRoute({
      ...withKey,
      method: 'put',
      path: `${base}/:key`,
      summary: `Set a custom attribute of a ${type} (created or updated)`,
      body: customAttributeBody,
      response: customAttribute,
      handler: async (ctx) => attributes.setCustomAttribute(ctx.db, type, ctx.modelId, ctx.params.key, ctx.body.value),
    }),
    defineRoute({
      ...withKey,
      method: 'delete',
      path: `${base}/:key`,
      summary: `Delete a custom attribute of a ${type}`,
      handler: async (ctx) => attributes.deleteCustomAttribute(ctx.db, type, ctx.modelId, ctx.params.key),
    }),
  ];
}

export const customAttributeRoutes = [
  ...makeCustomAttributeRoutes({ resource: 'users', type: 'user', params: { id: recordId('User') }, modelId: async (ctx) => (await getUser(ctx.db, ctx.params.id)).id }),
  ...makeCustomAttributeRoutes({ resource: 'groups', type: 'group', load: 'group', params: {}, modelId: async (ctx) => ctx.group.id }),
  ...makeCustomAttributeRoutes({ resource: 'projects', type: 'project', load: 'project', params: {}, modelId: async (ctx) => ctx.project.id }),
];
