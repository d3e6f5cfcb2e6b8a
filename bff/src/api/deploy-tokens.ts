import { z } from 'zod';
import { deployToken, deployTokenCreateBody, deployTokenListQuery, deployTokenWithToken } from '../../../shared/src/deploy-tokens.ts';
import { defineRoute } from '../http/route.ts';
import { pageRequest } from '../db/pagination.ts';
import * as tokens from '../services/deploy-tokens.ts';
import { presentDeployToken, presentDeployTokenWithToken } from '../presenters/deploy-tokens.ts';

const area = 'deploy-tokens';
const base = '/groups/:id/deploy_tokens';

export const deployTokenRoutes = [
  defineRoute({
    method: 'get',
    path: base,
    area,
    summary: 'List the group’s deploy tokens (Maintainer)',
    load: 'group',
    permission: 'admin_deploy_tokens',
    query: deployTokenListQuery,
    response: z.array(deployToken),
    errors: [400, 401, 403, 404],
    handler: async (ctx) => tokens.listDeployTokens(ctx.db, ctx.group, ctx.query.active, pageRequest(ctx.query)),
    present: (t) => presentDeployToken(t),
  }),
  defineRoute({
    method: 'get',
    path: `${base}/:token_id`,
    area,
    summary: 'Get a group deploy token',
    load: 'group',
    permission: 'admin_deploy_tokens',
    response: deployToken,
    errors: [401, 403, 404],
    handler: async (ctx) => presentDeployToken(await tokens.getDeployToken(ctx.db, ctx.group, ctx.params.token_id)),
  }),
  defineRoute({
    method: 'post',
    path: base,
    area,
    summary: 'Create a group deploy token; the plaintext is returned once',
    load: 'group',
    permission: 'admin_deploy_tokens',
    body: deployTokenCreateBody,
    response: deployTokenWithToken,
    errors: [400, 401, 403, 404],
    handler: async (ctx) => presentDeployTokenWithToken(await tokens.createDeployToken(ctx.db, ctx.group, ctx.body)),
  }),
  defineRoute({
    method: 'delete',
    path: `${base}/:token_id`,
    area,
    summary: 'Revoke a group deploy token',
    load: 'group',
    permission: 'admin_deploy_tokens',
    errors: [401, 403, 404],
    handler: async (ctx) => tokens.revokeDeployToken(ctx.db, await tokens.getDeployToken(ctx.db, ctx.group, ctx.params.token_id)),
  }),
];
