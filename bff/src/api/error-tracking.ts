import { z } from 'zod';
import {
  errorTrackingClientKey,
  errorTrackingSetting,
  errorTrackingSettingBody,
  trackedError,
  trackedErrorDetails,
  trackedErrorEvent,
  trackedErrorListQuery,
  trackedErrorUpdateBody,
} from '../../../shared/src/error-tracking.ts';
import { issue as issueSchema } from '../../../shared/src/issues.ts';
import { paginationQuery } from '../../../shared/src/params.ts';
import { defineRoute, type RouteContext } from '../http/route.ts';
import { recordId, recordKey } from '../http/params.ts';
import { readRawBody } from '../http/raw-body.ts';
import { pageRequest } from '../db/pagination.ts';
import * as settings from '../services/error-tracking/settings.ts';
import * as errors from '../services/error-tracking/errors.ts';
import * as collector from '../services/error-tracking/collector.ts';
import { parseEnvelope, parseStore } from '../services/error-tracking/sentry-payload.ts';
import { issueView } from '../services/planning/issues.ts';
import { presentClientKey, presentErrorTrackingSetting, presentTrackedError, presentTrackedErrorDetails, presentTrackedErrorEvent } from '../presenters/error-tracking.ts';
import { presentIssue } from '../presenters/issues.ts';
import { actingOf } from './issues.ts';

const area = 'error-tracking';
const base = '/projects/:id/error_tracking';

/** The key named by :key_id, among the project's own. */
const withKey = {
  params: { key_id: recordId('Client Key') },
  with: { key: (ctx: RouteContext<unknown, unknown, { key_id: number }, 'project'>) => settings.getClientKey(ctx.db, ctx.project, ctx.params.key_id) },
};
/** The error named by :error_id, among the project's own. */
const withError = {
  params: { error_id: recordId('Error') },
  with: { error: (ctx: RouteContext<unknown, unknown, { error_id: number }, 'project'>) => errors.getError(ctx.db, ctx.project, ctx.params.error_id) },
};

/** What a sender may send: 1 MiB on the wire, 4 MiB once decompressed (an event holds a stack trace, not attachments). */
const BODY_LIMITS = { maxBytes: 1024 * 1024, maxInflatedBytes: 4 * 1024 * 1024 };

/** The public key: the `sentry_key` query parameter (browser and Node SDKs), else the `X-Sentry-Auth` header's. */
function publicKeyOf(query: { sentry_key?: string }, header: string | undefined): string | undefined {
  if (query.sentry_key) return query.sentry_key;
  return header?.match(/(?:^|[\s,])sentry_key\s*=\s*([^\s,]+)/)?.[1];
}

const collectorQuery = z.object({
  sentry_key: z.string().max(255).optional(),
  sentry_version: z.string().max(32).optional(),
  sentry_client: z.string().max(255).optional(),
});

/**
 * The collector, at the paths SDKs derive from the DSN (`…/collector/<id>` becomes
 * `…/collector/api/<id>/envelope/`). It answers 200 and nothing more to what it records, the
 * same 404 to an unknown project, tracking switched off and a key that is not the project's
 * active key, 400 to a request with no key at all or a body it cannot read (as the platform),
 * 413 past its size and 429 past the key's rate.
 */
const collectorRoute = (kind: 'envelope' | 'store') =>
  defineRoute({
    method: 'post',
    path: `/error_tracking/collector/api/:id/${kind}`,
    area,
    summary: kind === 'envelope' ? 'Receive an SDK envelope (events and sessions) for the project; the key is the DSN’s public key' : 'Receive one SDK event for the project (the store endpoint)',
    auth: 'optional',
    // The key is the sender's credential; an API token sent along is neither needed nor judged by its scopes.
    scope: 'any',
    params: { id: recordKey('Project') },
    query: collectorQuery,
    rawBody: true,
    status: 200,
    response: z.object({}),
    errors: [413, 429],
    handler: async (ctx) => {
      const ip = ctx.req.ip;
      const header = ctx.req.get('x-sentry-auth');
      const { projectId } = await collector.admit(ctx.db, { projectId: ctx.params.id, publicKey: publicKeyOf(ctx.query, header), ip }, { perKeyPerMinute: ctx.config.errorTrackingEventsPerMinute });
      const body = await readRawBody(ctx.req, BODY_LIMITS);
      await collector.record(ctx.db, projectId, kind === 'envelope' ? parseEnvelope(body) : parseStore(body), ip);
      return {};
    },
  });

export const errorTrackingRoutes = [
  defineRoute({
    method: 'get',
    path: `${base}/settings`,
    area,
    summary: 'Get the project’s error tracking setting (Maintainer); 404 until one is saved',
    load: 'project',
    permission: 'admin_error_tracking',
    response: errorTrackingSetting,
    handler: async (ctx) => settings.getSetting(ctx.db, ctx.project),
    present: presentErrorTrackingSetting,
  }),
  defineRoute({
    method: 'put',
    path: `${base}/settings`,
    area,
    summary: 'Turn error tracking and its integrated backend on or off (Maintainer)',
    load: 'project',
    permission: 'admin_error_tracking',
    body: errorTrackingSettingBody,
    response: errorTrackingSetting,
    handler: async (ctx) => settings.saveSetting(ctx.db, ctx.project, ctx.body),
    present: presentErrorTrackingSetting,
  }),
  defineRoute({
    method: 'get',
    path: `${base}/client_keys`,
    area,
    summary: 'List the project’s error tracking client keys (Maintainer)',
    load: 'project',
    permission: 'admin_error_tracking',
    query: paginationQuery,
    response: z.array(errorTrackingClientKey),
    handler: async (ctx) => settings.listClientKeys(ctx.db, ctx.project, pageRequest(ctx.query)),
    present: presentClientKey,
  }),
  defineRoute({
    method: 'post',
    path: `${base}/client_keys`,
    area,
    summary: 'Create a client key (a DSN) for the project (Maintainer)',
    load: 'project',
    permission: 'admin_error_tracking',
    response: errorTrackingClientKey,
    handler: async (ctx) => settings.createClientKey(ctx.db, ctx.project),
    present: presentClientKey,
  }),
  defineRoute({
    method: 'delete',
    path: `${base}/client_keys/:key_id`,
    area,
    summary: 'Delete a client key; events sent with it are refused from then on. Answers the deleted key',
    load: 'project',
    permission: 'admin_error_tracking',
    ...withKey,
    status: 200,
    response: errorTrackingClientKey,
    handler: async (ctx) => settings.deleteClientKey(ctx.db, ctx.key),
    present: presentClientKey,
  }),
  collectorRoute('envelope'),
  collectorRoute('store'),
  defineRoute({
    method: 'get',
    path: `${base}/errors`,
    area,
    summary: 'List the project’s errors, newest last seen first (Reporter)',
    load: 'project',
    permission: 'read_error_tracking',
    query: trackedErrorListQuery,
    response: z.array(trackedError),
    handler: async (ctx) => errors.listErrors(ctx.db, ctx.project, ctx.query, pageRequest(ctx.query)),
    present: presentTrackedError,
  }),
  defineRoute({
    method: 'get',
    path: `${base}/errors/:error_id`,
    area,
    summary: 'Get an error with its latest stack trace and its frequency (Reporter)',
    load: 'project',
    permission: 'read_error_tracking',
    ...withError,
    response: trackedErrorDetails,
    handler: async (ctx) => errors.errorDetails(ctx.db, ctx.error),
    present: presentTrackedErrorDetails,
  }),
  defineRoute({
    method: 'put',
    path: `${base}/errors/:error_id`,
    area,
    summary: 'Resolve, ignore or unresolve an error (Reporter)',
    load: 'project',
    permission: 'update_error_tracking',
    ...withError,
    body: trackedErrorUpdateBody,
    response: trackedErrorDetails,
    handler: async (ctx) => errors.errorDetails(ctx.db, await errors.setStatus(ctx.db, ctx.error, ctx.body.status)),
    present: presentTrackedErrorDetails,
  }),
  defineRoute({
    method: 'get',
    path: `${base}/errors/:error_id/events`,
    area,
    summary: 'List an error’s events, newest first (Reporter)',
    load: 'project',
    permission: 'read_error_tracking',
    ...withError,
    query: paginationQuery,
    response: z.array(trackedErrorEvent),
    handler: async (ctx) => errors.listEvents(ctx.db, ctx.error, pageRequest(ctx.query)),
    present: presentTrackedErrorEvent,
  }),
  defineRoute({
    method: 'post',
    path: `${base}/errors/:error_id/issue`,
    area,
    summary: 'Create an issue from an error: it holds the stack trace and links back; the error links to it (Reporter)',
    load: 'project',
    permission: 'update_error_tracking',
    ...withError,
    response: issueSchema,
    handler: async (ctx) => {
      const errorUrl = `${ctx.baseUrl}/projects/${ctx.project.path_with_namespace}/-/error_tracking/${ctx.error.id}`;
      return issueView(ctx.db, await errors.createIssueFromError(ctx.db, actingOf(ctx), ctx.error, errorUrl));
    },
    present: (v, ctx) => presentIssue(v, ctx),
  }),
];
