import { z } from 'zod';
import { user, userCreateBody, userListQuery } from '../../../shared/src/users.ts';
import { defineRoute } from '../http/route.ts';
import { pageRequest } from '../db/pagination.ts';
import { notFound } from '../services/errors.ts';
import { canInstance, canReadUserPrivate } from '../policies/index.ts';
import * as users from '../services/users.ts';
import { customAttributesOf } from '../services/groups.ts';
import { presentUser } from '../presenters/users.ts';

const area = 'users';
const withCustomAttributes = z.object({ with_custom_attributes: userListQuery.shape.with_custom_attributes });

export const userRoutes = [
  defineRoute({
    method: 'get',
    path: '/user',
    area,
    summary: 'The authenticated user',
    scope: 'read_user',
    response: user,
    errors: [401],
    handler: async (ctx) => presentUser(ctx.actor.user!, ctx.baseUrl, { full: true }),
  }),
  defineRoute({
    method: 'get',
    path: '/users',
    area,
    summary: 'List users',
    // A read_user token may read /users as well as /user, as on the platform.
    scope: 'read_user',
    permission: 'read_users',
    query: userListQuery,
    response: z.array(user),
    errors: [400, 401],
    handler: async (ctx) => {
      const admin = canInstance(ctx.actor, 'read_admin_fields');
      const page = await users.listUsers(ctx.db, ctx.query, pageRequest(ctx.query), admin);
      const custom = ctx.query.with_custom_attributes && admin ? await customAttributesOf(ctx.db, 'user', page.items.map((u) => u.id)) : undefined;
      return page.map((u) => ({ u, custom: custom ? (custom.get(u.id) ?? []) : undefined }));
    },
    present: ({ u, custom }, ctx) => presentUser(u, ctx.baseUrl, { full: canReadUserPrivate(ctx.actor, u), customAttributes: custom }),
  }),
  defineRoute({
    method: 'get',
    path: '/users/:user_id',
    area,
    summary: 'Get a user',
    scope: 'read_user',
    permission: 'read_users',
    query: withCustomAttributes,
    response: user,
    errors: [401, 404],
    handler: async (ctx) => {
      const u = await users.findUser(ctx.db, ctx.params.user_id);
      if (!u) throw notFound('User');
      const admin = canInstance(ctx.actor, 'read_admin_fields');
      const custom = ctx.query.with_custom_attributes && admin ? ((await customAttributesOf(ctx.db, 'user', [u.id])).get(u.id) ?? []) : undefined;
      return presentUser(u, ctx.baseUrl, { full: canReadUserPrivate(ctx.actor, u), customAttributes: custom });
    },
  }),
  defineRoute({
    method: 'post',
    path: '/users',
    area,
    summary: 'Create a user (administrators)',
    permission: 'admin_instance',
    body: userCreateBody,
    response: user,
    errors: [400, 401, 403, 409],
    handler: async (ctx) => presentUser(await users.createUser(ctx.db, ctx.body), ctx.baseUrl, { full: true }),
  }),
];
