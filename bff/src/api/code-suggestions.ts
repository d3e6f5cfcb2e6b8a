import { pipeline } from 'node:stream/promises';
import { Router } from 'express';
import { z } from 'zod';
import {
  codeCompletionBody,
  codeCompletionResponse,
  codeSuggestionsEnabledBody,
  connectionDetails,
  directAccessDetails,
} from '../../../shared/src/code-suggestions.ts';
import type { Db } from '../db/index.ts';
import type { Vault } from '../auth/vault.ts';
import { defineRoute, FileAnswer, type RouteContext } from '../http/route.ts';
import { unauthorized } from '../util/errors.ts';
import * as suggestions from '../services/code-suggestions/code-suggestions.ts';

const area = 'code-suggestions';

/** The signed-in caller, as the gateway is told of them (every route here needs a user). */
function callerOf(ctx: RouteContext): suggestions.Caller {
  if (!ctx.actor.user) throw unauthorized();
  return { user: ctx.actor.user, baseUrl: ctx.baseUrl };
}

export const codeSuggestionRoutes = [
  defineRoute({
    method: 'post',
    path: '/code_suggestions/completions',
    area,
    summary: 'Complete or generate code through the AI gateway (the answer streamed on when `stream` is true); 60 requests a minute per user',
    scope: 'ai_features',
    body: codeCompletionBody,
    status: 200,
    response: codeCompletionResponse,
    file: ['application/json', 'text/event-stream'],
    errors: [413, 429, 503],
    handler: async (ctx) => {
      const caller = callerOf(ctx);
      suggestions.requireGateway(ctx.config.aiGateway);
      await suggestions.limit(ctx.db, 'completions', caller.user.id, ctx.config.codeSuggestionsPerMinute);
      const answer = await suggestions.complete(ctx.db, ctx.vault, ctx.config.aiGateway, caller, ctx.body);
      return new FileAnswer(
        { 'Content-Type': answer.contentType, 'Cache-Control': 'no-store', 'X-Accel-Buffering': 'no' },
        // Each piece goes on as it arrives; a caller who hangs up stops the gateway's answer too.
        (out) => pipeline(answer.body, out),
        answer.status,
      );
    },
  }),
  defineRoute({
    method: 'post',
    path: '/code_suggestions/enabled',
    area,
    summary: 'Whether code suggestions are on for a project (by its full path): 200 with nothing more, 403 when off, 404 for a project the caller cannot see',
    scope: 'ai_features',
    body: codeSuggestionsEnabledBody,
    status: 200,
    response: z.object({}),
    handler: async (ctx) => {
      await suggestions.checkEnabled(ctx.db, ctx.actor, ctx.config.aiGateway, ctx.body.project_path);
      return {};
    },
  }),
  defineRoute({
    method: 'post',
    path: '/code_suggestions/direct_access',
    area,
    summary: 'The AI gateway’s address, a token of at most an hour signed by the instance’s key, and the headers to send it',
    scope: 'ai_features',
    response: directAccessDetails,
    errors: [429, 503],
    handler: async (ctx) => {
      const caller = callerOf(ctx);
      suggestions.requireGateway(ctx.config.aiGateway);
      await suggestions.limit(ctx.db, 'direct_access', caller.user.id, suggestions.DIRECT_ACCESS_PER_MINUTE);
      return suggestions.directAccess(ctx.db, ctx.vault, ctx.config.aiGateway, caller);
    },
  }),
  defineRoute({
    method: 'post',
    path: '/code_suggestions/connection_details',
    area,
    summary: 'The instance’s and the caller’s identifiers for client telemetry',
    scope: 'ai_features',
    response: connectionDetails,
    errors: [429],
    handler: async (ctx) => {
      const caller = callerOf(ctx);
      await suggestions.limit(ctx.db, 'connection_details', caller.user.id, suggestions.CONNECTION_DETAILS_PER_MINUTE);
      return suggestions.connectionDetails(ctx.db, caller);
    },
  }),
];

/**
 * `GET /oauth/discovery/keys`: the installation's public signing key as a JSON Web Key Set, at
 * the platform's path, so an AI gateway verifies the tokens Gatehouse signs without a shared
 * secret.
 */
export function discoveryKeys(deps: { db: Db; vault: Vault }): Router {
  return Router().get('/oauth/discovery/keys', async (_req, res, next) => {
    try {
      const set = await suggestions.keySet(deps.db, deps.vault);
      res.set('Cache-Control', 'public, max-age=300');
      res.status(200).json(set);
    } catch (e) {
      next(e);
    }
  });
}
