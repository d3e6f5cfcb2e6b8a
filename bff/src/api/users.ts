import { z } from 'zod';
import { user, userCreateBody, userListQuery, userUpdateBody } from '../../../shared/src/users.ts';
import { defineRoute } from '../http/route.ts';
import { recordId } from '../http/params.ts';
import type { Db } from '../db/index.ts';
import { pageRequest } from '../db/pagination.ts';
import { canInstance, canReadUserPrivate } from '../policies/index.ts';
import * as users from '../services/access/users.ts';
import { customAttributesOf } from '../services/groups/groups.ts';
import { presentUser } from '../presenters/users.ts';

const area = 'users';
const withCustomAttributes = z.object({ with_custom_attributes: userListQuery.shape.with_custom_attributes });
/** The user named by :user_id, for the administrators' routes. */
const withUser = {
  params: { user_id: recordId('User') },
  with: { user: (ctx: { db: Db; params: { user_id: number } }) => users.getUser(ctx.db, ctx.params.user_id) },
};

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
  defineRoute({
    method: 'put',
    path: '/users/:user_id',
    area,
    summary: 'Change a user’s account (administrators): what is not sent is kept',
    permission: 'admin_instance',
    ...withUser,
    body: userUpdateBody,
    // Clients send this form as multipart (it may carry an avatar).
    upload: 'avatar',
    response: user,
    errors: [409],
    handler: async (ctx) => users.updateUser(ctx.db, ctx.user, ctx.body, ctx.file, ctx.actor.user?.id),
    present: (u, ctx) => presentUser(u, ctx.baseUrl, { full: true }),
  }),
  ...(['block', 'unblock'] as const).map((action) =>
    defineRoute({
      method: 'post',
      path: `/users/:user_id/${action}`,
      area,
      summary:
        action === 'block'
          ? 'Block a user (administrators): their tokens and sessions stop working, their data stays'
          : 'Unblock a user (administrators)',
      permission: 'admin_instance',
      ...withUser,
      response: z.literal(true),
      handler: async (ctx) => {
        await (action === 'block' ? users.blockUser(ctx.db, ctx.user, ctx.actor.user?.id) : users.unblockUser(ctx.db, ctx.user));
        return true as const;
      },
    }),
  ),
];
