import { z } from 'zod';
import { customAttribute, customAttributeBody, customAttributeKey } from '../../../shared/src/custom-attributes.ts';
import { defineRoute, type RouteContext } from '../http/route.ts';
import { notFound, validationFailed } from '../services/errors.ts';
import { findUser } from '../services/users.ts';
import * as attributes from '../services/custom-attributes.ts';

const area = 'custom-attributes';
type Resource = 'users' | 'groups' | 'projects';
const MODEL: Record<Resource, attributes.ModelType> = { users: 'user', groups: 'group', projects: 'project' };

/** The ID of the user, group or project in the path; groups and projects are loaded by the route. */
async function modelId(resource: Resource, ctx: RouteContext<unknown, unknown>): Promise<number> {
  if (resource === 'groups') return ctx.group.id;
  if (resource === 'projects') return ctx.project.id;
  const user = await findUser(ctx.db, ctx.params.id);
  if (!user) throw notFound('User');
  return user.id;
}

function key(ctx: RouteContext<unknown, unknown>): string {
  const parsed = customAttributeKey.safeParse(ctx.params.key);
  if (!parsed.success) throw validationFailed({ key: parsed.error.issues.map((i) => i.message) });
  return parsed.data;
}

/** Custom attributes of users, groups and projects, written once for the three (administrators only). */
export function makeCustomAttributeRoutes(resource: Resource) {
  const load = resource === 'groups' ? ('group' as const) : resource === 'projects' ? ('project' as const) : undefined;
  const base = `/${resource}/:id/custom_attributes`;
  const type = MODEL[resource];
  const common = { area, load, permission: 'admin_instance' as const };
  return [
    defineRoute({
      ...common,
      method: 'get',
      path: base,
      summary: `List a ${type}'s custom attributes (administrators)`,
      response: z.array(customAttribute),
      errors: [401, 403, 404],
      handler: async (ctx) => attributes.listCustomAttributes(ctx.db, type, await modelId(resource, ctx)),
    }),
    defineRoute({
      ...common,
      method: 'get',
      path: `${base}/:key`,
      summary: `Get one custom attribute of a ${type}`,
      response: customAttribute,
      errors: [401, 403, 404],
      handler: async (ctx) => attributes.getCustomAttribute(ctx.db, type, await modelId(resource, ctx), key(ctx)),
    }),
    defineRoute({
      ...common,
      method: 'put',
      path: `${base}/:key`,
      summary: `Set a custom attribute of a ${type} (created or updated)`,
      body: customAttributeBody,
      response: customAttribute,
      errors: [400, 401, 403, 404],
      handler: async (ctx) => attributes.setCustomAttribute(ctx.db, type, await modelId(resource, ctx), key(ctx), ctx.body.value),
    }),
    defineRoute({
      ...common,
      method: 'delete',
      path: `${base}/:key`,
      summary: `Delete a custom attribute of a ${type}`,
      errors: [401, 403, 404],
      handler: async (ctx) => attributes.deleteCustomAttribute(ctx.db, type, await modelId(resource, ctx), key(ctx)),
    }),
  ];
}

export const customAttributeRoutes = (['users', 'groups', 'projects'] as const).flatMap(makeCustomAttributeRoutes);
