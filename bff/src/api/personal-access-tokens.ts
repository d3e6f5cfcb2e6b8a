import { z } from 'zod';
import {
  personalAccessToken,
  personalAccessTokenCreateBody,
  personalAccessTokenListQuery,
  personalAccessTokenRotateBody,
  personalAccessTokenWithToken,
  tokenRotation,
  tokenRotationsQuery,
} from '../../../shared/src/personal-access-tokens.ts';
import { defineRoute } from '../http/route.ts';
import { recordId, selfOrId } from '../http/params.ts';
import { pageRequest } from '../db/pagination.ts';
import type { Db } from '../db/index.ts';
import * as tokens from '../services/access/personal-access-tokens.ts';
import { getUser } from '../services/access/users.ts';
import { presentPersonalAccessToken, presentPersonalAccessTokenWithToken, presentTokenRotation } from '../presenters/personal-access-tokens.ts';

const area = 'personal-access-tokens';

export const personalAccessTokenRoutes = [
  defineRoute({
    method: 'post',
    path: '/users/:user_id/personal_access_tokens',
    area,
    summary: 'Create a personal access token for a user (administrators); the plaintext is returned once',
    permission: 'admin_instance',
    params: { user_id: recordId('User') },
    with: { user: (ctx: { db: Db; params: { user_id: number } }) => getUser(ctx.db, ctx.params.user_id) },
    body: personalAccessTokenCreateBody,
    response: personalAccessTokenWithToken,
    handler: async (ctx) => tokens.createPersonalAccessToken(ctx.db, ctx.user.id, ctx.body),
    present: presentPersonalAccessTokenWithToken,
  }),
  defineRoute({
    method: 'post',
    path: '/user/personal_access_tokens',
    area,
    summary:
      'Create a personal access token for yourself; from a token only with the k8s_proxy scope (the platform’s rule), from a console session with any scope',
    body: personalAccessTokenCreateBody,
    response: personalAccessTokenWithToken,
    handler: async (ctx) => tokens.createOwnPersonalAccessToken(ctx.db, ctx.actor, ctx.body),
    present: presentPersonalAccessTokenWithToken,
  }),
  defineRoute({
    method: 'post',
    path: '/personal_access_tokens/:token_id/rotate',
    area,
    summary: 'Rotate a personal access token (`self`: the calling token, with the api or self_rotate scope); the old one is revoked at once',
    scope: 'self_rotate',
    // A malformed id is looked up like one that does not exist: the rotation rules decide
    // between 401 and 404 for the caller, as for any unknown token.
    params: { token_id: selfOrId('Token').catch(0) },
    body: personalAccessTokenRotateBody,
    status: 200,
    response: personalAccessTokenWithToken,
    errors: [400, 405],
    handler: async (ctx) => tokens.rotatePersonalAccessToken(ctx.db, ctx.actor, ctx.params.token_id, ctx.body.expires_at),
    present: presentPersonalAccessTokenWithToken,
  }),
  defineRoute({
    method: 'get',
    path: '/personal_access_tokens',
    area,
    summary: 'List personal access tokens (your own; every user’s for administrators)',
    query: personalAccessTokenListQuery,
    response: z.array(personalAccessToken),
    handler: async (ctx) => tokens.listPersonalAccessTokens(ctx.db, ctx.actor, ctx.query, pageRequest(ctx.query)),
    present: presentPersonalAccessToken,
  }),
  // Any token may read and revoke itself, whatever its scopes (a read_repository token included).
  defineRoute({
    method: 'get',
    path: '/personal_access_tokens/self',
    area,
    summary: 'Get the personal access token used for this call (any scope)',
    scope: 'any',
    response: personalAccessToken,
    errors: [404],
    handler: async (ctx) => tokens.findVisibleToken(ctx.db, ctx.actor, 'self'),
    present: presentPersonalAccessToken,
  }),
  defineRoute({
    method: 'delete',
    path: '/personal_access_tokens/self',
    area,
    summary: 'Revoke the personal access token used for this call (any scope)',
    scope: 'any',
    errors: [400, 404],
    handler: async (ctx) => tokens.revokePersonalAccessToken(ctx.db, await tokens.findVisibleToken(ctx.db, ctx.actor, 'self')),
  }),
  defineRoute({
    method: 'get',
    path: '/personal_access_tokens/:token_id',
    area,
    summary: 'Get a personal access token',
    params: { token_id: recordId('Token') },
    response: personalAccessToken,
    handler: async (ctx) => tokens.findVisibleToken(ctx.db, ctx.actor, ctx.params.token_id),
    present: presentPersonalAccessToken,
  }),
  defineRoute({
    method: 'delete',
    path: '/personal_access_tokens/:token_id',
    area,
    summary: 'Revoke a personal access token',
    params: { token_id: recordId('Token') },
    errors: [400],
    handler: async (ctx) => tokens.revokePersonalAccessToken(ctx.db, await tokens.findVisibleToken(ctx.db, ctx.actor, ctx.params.token_id)),
  }),
];

/** The console's inactive lists tell a rotated token from a revoked one: the platform's token object does not. */
export const personalAccessTokenConsoleRoutes = [
  defineRoute({
    mount: 'console',
    method: 'get',
    path: '/personal_access_tokens/rotations',
    area,
    summary: 'Which of the given personal access tokens (ids, up to 100) were rotated, with their successor: your own; anyone’s for administrators',
    query: tokenRotationsQuery,
    response: z.array(tokenRotation),
    handler: async (ctx) => tokens.tokenRotations(ctx.db, ctx.query.ids ?? [], tokens.personalRotationScope(ctx.actor), pageRequest(ctx.query)),
    present: presentTokenRotation,
  }),
];
