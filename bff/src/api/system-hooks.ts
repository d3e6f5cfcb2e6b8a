import { z } from 'zod';
import { hookEvent, hookEventsQuery, hookHealth, resendResult, systemHookCreateBody, systemHookUpdateBody, webhook } from '../../../shared/src/hooks.ts';
import { paginationQuery } from '../../../shared/src/params.ts';
import { defineRoute, type RouteContext } from '../http/route.ts';
import { recordId } from '../http/params.ts';
import { pageRequest } from '../db/pagination.ts';
import { unprocessable } from '../util/errors.ts';
import type { WebHookRow } from '../db/schema.ts';
import * as hooks from '../services/webhooks/hooks.ts';
import { deliver, newEvent, type DeliveryDeps } from '../services/webhooks/hook-delivery.ts';
import { findHookLog, flagOfTrigger, listHookLogs } from '../services/webhooks/hook-events-log.ts';
import { hooksHealth } from '../services/webhooks/hook-health.ts';
import { sampleSystemPayload } from '../services/webhooks/system-hook-payloads.ts';
import { presentHook, presentHookEvent, presentHookHealth } from '../presenters/hooks.ts';

/**
 * System hooks (the platform's /hooks): the instance's webhooks, for administrators. They hear
 * every project, group and user created, destroyed or transferred, and, by their flags, every
 * project's pushes, tag pushes, merge requests and repository updates. Stored and delivered as
 * group and project hooks are (the same table, queue, log and health).
 */
const common = { area: 'system-hooks', permission: 'admin_instance' as const };
const SYSTEM = hooks.SYSTEM_HOOKS;
const deps = (ctx: RouteContext): DeliveryDeps => ({ db: ctx.db, vault: ctx.vault, config: ctx.config, instanceUrl: ctx.baseUrl });
const withHook = {
  params: { hook_id: recordId('Hook') },
  with: { hook: (ctx: RouteContext & { params: { hook_id: number } }) => hooks.findHook(ctx.db, SYSTEM, ctx.params.hook_id) },
};

export const systemHookRoutes = [
  defineRoute({
    ...common,
    method: 'get',
    path: '/hooks',
    summary: 'List the system hooks (administrators)',
    query: paginationQuery,
    response: z.array(webhook),
    handler: async (ctx) => hooks.listHooks(ctx.db, SYSTEM, pageRequest(ctx.query)),
    present: (h, ctx) => presentHook(h, ctx.vault),
  }),
  defineRoute({
    ...common,
    ...withHook,
    method: 'get',
    path: '/hooks/:hook_id',
    summary: 'Get a system hook',
    response: webhook,
    handler: async (ctx) => ctx.hook,
    present: (h, ctx) => presentHook(h, ctx.vault),
  }),
  defineRoute({
    ...common,
    method: 'post',
    path: '/hooks',
    summary: 'Add a system hook: url, token, push_events, tag_push_events, merge_requests_events, repository_update_events, enable_ssl_verification, and a name, description, URL variables, custom headers and template as other hooks',
    body: systemHookCreateBody,
    response: webhook,
    errors: [422],
    handler: async (ctx) => hooks.createHook(ctx.db, ctx.vault, SYSTEM, ctx.body),
    present: (h, ctx) => presentHook(h, ctx.vault),
  }),
  defineRoute({
    ...common,
    ...withHook,
    method: 'put',
    path: '/hooks/:hook_id',
    summary: 'Change a system hook (at least one parameter)',
    body: systemHookUpdateBody,
    response: webhook,
    errors: [422],
    handler: async (ctx) => hooks.updateHook(ctx.db, ctx.vault, SYSTEM, ctx.hook, ctx.body),
    present: (h, ctx) => presentHook(h, ctx.vault),
  }),
  defineRoute({
    ...common,
    ...withHook,
    method: 'delete',
    path: '/hooks/:hook_id',
    summary: 'Delete a system hook and its delivery log',
    handler: async (ctx) => hooks.deleteHook(ctx.db, ctx.hook),
  }),
  defineRoute({
    ...common,
    ...withHook,
    method: 'post',
    path: '/hooks/:hook_id',
    summary: 'Test a system hook: sends a sample project_create event (also when the hook is disabled), logged like any delivery, and answers the event sent whatever the receiver answered, as the platform',
    response: z.record(z.string(), z.unknown()),
    handler: async (ctx) => {
      const data = sampleSystemPayload();
      await deliver(deps(ctx), ctx.hook, newEvent('system_hooks', data));
      return data;
    },
  }),
];

/** The console's: the system hooks' health (one request for the list) and their delivery log, which the platform's API does not give for system hooks. */
export const systemHookConsoleRoutes = [
  defineRoute({
    ...common,
    mount: 'console',
    method: 'get',
    path: '/admin/hooks/health',
    summary: 'How each system hook (a page, as listed) delivered in the past seven days: deliveries and failures counted up to 10,000, the newest delivery and the newest failure',
    query: paginationQuery,
    response: z.array(hookHealth),
    handler: async (ctx) => hooksHealth(ctx.db, SYSTEM, pageRequest(ctx.query)),
    present: (h) => presentHookHealth(h),
  }),
  defineRoute({
    ...common,
    ...withHook,
    mount: 'console',
    method: 'get',
    path: '/admin/hooks/:hook_id/events',
    summary: 'A system hook’s deliveries of the past seven days; status is a code or successful, client_failure, server_failure',
    query: hookEventsQuery,
    response: z.array(hookEvent),
    handler: async (ctx) => listHookLogs(ctx.db, ctx.hook, ctx.query, pageRequest(ctx.query)),
    present: (l) => presentHookEvent(l),
  }),
  defineRoute({
    ...common,
    params: { ...withHook.params, hook_event_id: recordId('Hook Log') },
    with: {
      ...withHook.with,
      log: (ctx: RouteContext & { params: { hook_event_id: number }; hook: WebHookRow }) => findHookLog(ctx.db, ctx.hook, ctx.params.hook_event_id),
    },
    mount: 'console',
    method: 'post',
    path: '/admin/hooks/:hook_id/events/:hook_event_id/resend',
    summary: 'Deliver a system hook’s logged event again with its original Idempotency-Key',
    response: resendResult,
    errors: [422],
    handler: async (ctx) => {
      const { hook, log } = ctx;
      const flag = flagOfTrigger(log.trigger) ?? 'system_hooks';
      const data = JSON.parse(log.request_data) as Record<string, unknown>;
      const again = await deliver(deps(ctx), { ...hook, custom_webhook_template: null }, { flag, data, eventUuid: log.event_uuid, idempotencyKey: log.idempotency_key });
      if (again.response_status === 'internal error') throw unprocessable(`Resend failed: ${again.internal_error_message}`);
      return { response_status: Number(again.response_status) };
    },
  }),
];
