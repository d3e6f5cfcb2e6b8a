import { z } from 'zod';
import { user, userCreateBody, userListQuery } from '../../../shared/src/users.ts';
import { defineRoute } from '../http/route.ts';
import { recordId } from '../http/params.ts';
import { pageRequest } from '../db/pagination.ts';
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
    handler: async (ctx) => ctx.actor.user!,
    present: (u, ctx) => presentUser(u, ctx.baseUrl, { full: true }),
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
    params: { user_id: recordId('User') },
    query: withCustomAttributes,
    response: user,
    handler: async (ctx) => {
      const u = await users.getUser(ctx.db, ctx.params.user_id);
      const admin = canInstance(ctx.actor, 'read_admin_fields');
      const custom = ctx.query.with_custom_attributes && admin ? ((await customAttributesOf(ctx.db, 'user', [u.id])).get(u.id) ?? []) : undefined;
      return { u, custom };
    },
    present: ({ u, custom }, ctx) => presentUser(u, ctx.baseUrl, { full: canReadUserPrivate(ctx.actor, u), customAttributes: custom }),
  }),
  defineRoute({
    method: 'post',
    path: '/users',
    area,
    summary: 'Create a user (administrators)',
    permission: 'admin_instance',
    body: userCreateBody,
    response: user,
    errors: [409],
    handler: async (ctx) => users.createUser(ctx.db, ctx.body),
    present: (u, ctx) => presentUser(u, ctx.baseUrl, { full: true }),
  }),
];
