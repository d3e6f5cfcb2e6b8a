import { z } from 'zod';
import {
  groupAccessToken,
  groupAccessTokenCreateBody,
  groupAccessTokenListQuery,
  groupAccessTokenRotateBody,
  groupAccessTokenWithToken,
} from '../../../shared/src/group-access-tokens.ts';
import { tokenRotation, tokenRotationsQuery } from '../../../shared/src/personal-access-tokens.ts';
import { defineRoute } from '../http/route.ts';
import { recordId, selfOrId } from '../http/params.ts';
import { pageRequest } from '../db/pagination.ts';
import * as tokens from '../services/access/group-access-tokens.ts';
import { tokenRotations } from '../services/access/personal-access-tokens.ts';
import { presentTokenRotation } from '../presenters/personal-access-tokens.ts';
import { presentGroupAccessToken, presentGroupAccessTokenWithToken } from '../presenters/group-access-tokens.ts';

const area = 'group-access-tokens';
const base = '/groups/:id/access_tokens';
const tokenId = { token_id: recordId('Token') };

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
    handler: async (ctx) => tokens.listGroupAccessTokens(ctx.db, ctx.group, ctx.query, pageRequest(ctx.query)),
    present: presentGroupAccessToken,
  }),
  defineRoute({
    method: 'get',
    path: `${base}/:token_id`,
    area,
    summary: 'Get a group access token',
    load: 'group',
    permission: 'admin_group',
    params: tokenId,
    response: groupAccessToken,
    handler: async (ctx) => tokens.getGroupAccessToken(ctx.db, ctx.group, ctx.params.token_id),
    present: presentGroupAccessToken,
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
    handler: async (ctx) => tokens.createGroupAccessToken(ctx.db, ctx.actor, ctx.group, ctx.body),
    present: presentGroupAccessTokenWithToken,
  }),
  defineRoute({
    method: 'post',
    path: `${base}/:token_id/rotate`,
    area,
    summary: 'Rotate a group access token (`self`: the calling token); the old one is revoked at once',
    load: 'group',
    scope: 'self_rotate',
    // A malformed id is looked up like one that does not exist: the rotation rules decide
    // between 401 and 404 for the caller, as for any unknown token.
    params: { token_id: selfOrId('Token').catch(0) },
    body: groupAccessTokenRotateBody,
    status: 200,
    response: groupAccessTokenWithToken,
    errors: [405],
    handler: async (ctx) => tokens.rotateGroupAccessToken(ctx.db, ctx.actor, ctx.group, ctx.level, ctx.params.token_id, ctx.body.expires_at),
    present: presentGroupAccessTokenWithToken,
  }),
  defineRoute({
    method: 'delete',
    path: `${base}/:token_id`,
    area,
    summary: 'Revoke a group access token',
    load: 'group',
    permission: 'admin_group',
    params: tokenId,
    errors: [400],
    handler: async (ctx) => tokens.revokeGroupAccessToken(ctx.db, ctx.group, ctx.params.token_id),
  }),
];

/** The console's inactive list tells a rotated token from a revoked one: the platform's token object does not. */
export const groupAccessTokenConsoleRoutes = [
  defineRoute({
    mount: 'console',
    method: 'get',
    path: `${base}/rotations`,
    area,
    summary: 'Which of the given group access tokens (ids, up to 100) were rotated, with their successor',
    load: 'group',
    permission: 'admin_group',
    query: tokenRotationsQuery,
    response: z.array(tokenRotation),
    handler: async (ctx) => tokenRotations(ctx.db, ctx.query.ids ?? [], { botGroupId: ctx.group.id }, pageRequest(ctx.query)),
    present: presentTokenRotation,
  }),
];
