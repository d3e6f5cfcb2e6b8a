import { z } from 'zod';
import { deployToken, deployTokenCreateBody, deployTokenListQuery, deployTokenWithToken } from '../../../shared/src/deploy-tokens.ts';
import { defineRoute, type RouteContext } from '../http/route.ts';
import { recordId } from '../http/params.ts';
import { pageRequest } from '../db/pagination.ts';
import * as tokens from '../services/access/deploy-tokens.ts';
import { presentDeployToken, presentDeployTokenWithToken } from '../presenters/deploy-tokens.ts';

const area = 'deploy-tokens';
const base = '/groups/:id/deploy_tokens';
/** The deploy token named by :token_id, among the group's own. */
const withToken = {
  params: { token_id: recordId('Deploy Token') },
  with: { token: (ctx: RouteContext<unknown, unknown, { token_id: number }, 'group'>) => tokens.getDeployToken(ctx.db, ctx.group, ctx.params.token_id) },
};

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
    handler: async (ctx) => tokens.listDeployTokens(ctx.db, ctx.group, ctx.query.active, pageRequest(ctx.query)),
    present: presentDeployToken,
  }),
  defineRoute({
    method: 'get',
    path: `${base}/:token_id`,
    area,
    summary: 'Get a group deploy token',
    load: 'group',
    permission: 'admin_deploy_tokens',
    ...withToken,
    response: deployToken,
    handler: async (ctx) => ctx.token,
    present: presentDeployToken,
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
    handler: async (ctx) => tokens.createDeployToken(ctx.db, ctx.group, ctx.body),
    present: presentDeployTokenWithToken,
  }),
  defineRoute({
    method: 'delete',
    path: `${base}/:token_id`,
    area,
    summary: 'Revoke a group deploy token',
    load: 'group',
    permission: 'admin_deploy_tokens',
    ...withToken,
    handler: async (ctx) => tokens.revokeDeployToken(ctx.db, ctx.token),
  }),
];
