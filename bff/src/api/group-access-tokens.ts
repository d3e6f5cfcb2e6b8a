import { z } from 'zod';
import {
  groupAccessToken,
  groupAccessTokenCreateBody,
  groupAccessTokenListQuery,
  groupAccessTokenRotateBody,
  groupAccessTokenWithToken,
} from '../../../shared/src/group-access-tokens.ts';
import { defineRoute } from '../http/route.ts';
import { pageRequest } from '../db/pagination.ts';
import * as tokens from '../services/group-access-tokens.ts';
import { presentGroupAccessToken, presentGroupAccessTokenWithToken } from '../presenters/group-access-tokens.ts';

const area = 'group-access-tokens';
const base = '/groups/:id/access_tokens';

export const groupAccessTokenRoutes = [
  defineRoute({
    method: 'get',
    path: base,
    area,
    summary: 'List the group’s access tokens',
    load: 'group',
    permission: 'admin_group',
    query: groupAccessTokenListQuery,
    response: z.array(groupAccessToken),
    errors: [400, 401, 403, 404],
    handler: async (ctx) => tokens.listGroupAccessTokens(ctx.db, ctx.group, ctx.query, pageRequest(ctx.query)),
    present: (r) => presentGroupAccessToken(r),
  }),
  defineRoute({
    method: 'get',
    path: `${base}/:token_id`,
    area,
    summary: 'Get a group access token',
    load: 'group',
    permission: 'admin_group',
    response: groupAccessToken,
    errors: [401, 403, 404],
    handler: async (ctx) => presentGroupAccessToken(await tokens.getGroupAccessToken(ctx.db, ctx.group, ctx.params.token_id)),
  }),
  defineRoute({
    method: 'post',
    path: base,
    area,
    summary: 'Create a group access token (Owner); the plaintext is returned once',
    load: 'group',
    permission: 'admin_group',
    body: groupAccessTokenCreateBody,
    response: groupAccessTokenWithToken,
    errors: [400, 401, 403, 404],
    handler: async (ctx) => presentGroupAccessTokenWithToken(await tokens.createGroupAccessToken(ctx.db, ctx.actor, ctx.group, ctx.body)),
  }),
  defineRoute({
    method: 'post',
    path: `${base}/:token_id/rotate`,
    area,
    summary: 'Rotate a group access token (`self`: the calling token); the old one is revoked at once',
    load: 'group',
    scope: 'self_rotate',
    body: groupAccessTokenRotateBody,
    status: 200,
    response: groupAccessTokenWithToken,
    errors: [400, 401, 403, 404, 405],
    handler: async (ctx) =>
      presentGroupAccessTokenWithToken(
        await tokens.rotateGroupAccessToken(ctx.db, ctx.actor, ctx.group, ctx.level, ctx.params.token_id, ctx.body.expires_at),
      ),
  }),
  defineRoute({
    method: 'delete',
    path: `${base}/:token_id`,
    area,
    summary: 'Revoke a group access token',
    load: 'group',
    permission: 'admin_group',
    errors: [400, 401, 403, 404],
    handler: async (ctx) => tokens.revokeGroupAccessToken(ctx.db, ctx.group, ctx.params.token_id),
  }),
];
