import { z } from 'zod';
import {
  personalAccessToken,
  personalAccessTokenCreateBody,
  personalAccessTokenListQuery,
  personalAccessTokenWithToken,
} from '../../../shared/src/personal-access-tokens.ts';
import { defineRoute } from '../http/route.ts';
import { pageRequest } from '../db/pagination.ts';
import { notFound } from '../services/errors.ts';
import * as tokens from '../services/personal-access-tokens.ts';
import { findUser } from '../services/users.ts';
import { presentPersonalAccessToken, presentPersonalAccessTokenWithToken } from '../presenters/personal-access-tokens.ts';

const area = 'personal-access-tokens';

export const personalAccessTokenRoutes = [
  defineRoute({
    method: 'post',
    path: '/users/:user_id/personal_access_tokens',
    area,
    summary: 'Create a personal access token for a user (administrators); the plaintext is returned once',
    permission: 'admin_instance',
    body: personalAccessTokenCreateBody,
    response: personalAccessTokenWithToken,
    errors: [400, 401, 403, 404],
    handler: async (ctx) => {
      const user = await findUser(ctx.db, ctx.params.user_id);
      if (!user) throw notFound('User');
      return presentPersonalAccessTokenWithToken(await tokens.createPersonalAccessToken(ctx.db, user.id, ctx.body));
    },
  }),
  defineRoute({
    method: 'get',
    path: '/personal_access_tokens',
    area,
    summary: 'List personal access tokens (your own; every user’s for administrators)',
    query: personalAccessTokenListQuery,
    response: z.array(personalAccessToken),
    errors: [400, 401],
    handler: async (ctx) => tokens.listPersonalAccessTokens(ctx.db, ctx.actor, ctx.query, pageRequest(ctx.query)),
    present: (t) => presentPersonalAccessToken(t),
  }),
  // Any token may read and revoke itself, whatever its scopes (a read_repository token included).
  defineRoute({
    method: 'get',
    path: '/personal_access_tokens/self',
    area,
    summary: 'Get the personal access token used for this call (any scope)',
    scope: 'any',
    response: personalAccessToken,
    errors: [401, 404],
    handler: async (ctx) => presentPersonalAccessToken(await tokens.findVisibleToken(ctx.db, ctx.actor, 'self')),
  }),
  defineRoute({
    method: 'delete',
    path: '/personal_access_tokens/self',
    area,
    summary: 'Revoke the personal access token used for this call (any scope)',
    scope: 'any',
    errors: [400, 401, 404],
    handler: async (ctx) => {
      if (!ctx.actor.token) throw notFound('Token');
      await tokens.revokePersonalAccessToken(ctx.db, await tokens.findVisibleToken(ctx.db, ctx.actor, 'self'));
    },
  }),
  defineRoute({
    method: 'get',
    path: '/personal_access_tokens/:token_id',
    area,
    summary: 'Get a personal access token',
    response: personalAccessToken,
    errors: [401, 404],
    handler: async (ctx) => presentPersonalAccessToken(await tokens.findVisibleToken(ctx.db, ctx.actor, ctx.params.token_id)),
  }),
  defineRoute({
    method: 'delete',
    path: '/personal_access_tokens/:token_id',
    area,
    summary: 'Revoke a personal access token',
    errors: [400, 401, 404],
    handler: async (ctx) => {
      await tokens.revokePersonalAccessToken(ctx.db, await tokens.findVisibleToken(ctx.db, ctx.actor, ctx.params.token_id));
    },
  }),
];
