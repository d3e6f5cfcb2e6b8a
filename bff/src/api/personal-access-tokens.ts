import { z } from 'zod';
import {
  personalAccessToken,
  personalAccessTokenCreateBody,
  personalAccessTokenListQuery,
  personalAccessTokenWithToken,
} from '../../../shared/src/personal-access-tokens.ts';
import { defineRoute } from '../http/route.ts';
import { pageRequest } from '../http/pagination.ts';
import { notFound } from '../http/errors.ts';
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
  defineRoute({
    method: 'get',
    path: '/personal_access_tokens/:token_id',
    area,
    summary: 'Get a personal access token; `self` is the calling token',
    response: personalAccessToken,
    errors: [401, 404],
    handler: async (ctx) => presentPersonalAccessToken(await tokens.findVisibleToken(ctx.db, ctx.actor, ctx.params.token_id)),
  }),
  defineRoute({
    method: 'delete',
    path: '/personal_access_tokens/:token_id',
    area,
    summary: 'Revoke a personal access token; `self` revokes the calling token',
    errors: [400, 401, 404],
    handler: async (ctx) => {
      if (ctx.params.token_id === 'self' && !ctx.actor.token) throw notFound('Token');
      await tokens.revokePersonalAccessToken(ctx.db, await tokens.findVisibleToken(ctx.db, ctx.actor, ctx.params.token_id));
    },
  }),
];
