import { z } from 'zod';
import { hookCreateBody, hookEvent, hookEventsQuery, hookFlagsFor, hookHealth, hookTestResult, hookUpdateBody, resendResult, webhook, type HookFlag } from '../../../shared/src/hooks.ts';
import { paginationQuery } from '../../../shared/src/params.ts';
import { defineRoute, type RouteContext } from '../http/route.ts';
import { recordId } from '../http/params.ts';
import { pageRequest } from '../db/pagination.ts';
import { tooManyRequests, unprocessable } from '../util/errors.ts';
import type { WebHookRow } from '../db/schema.ts';
import * as hooks from '../services/webhooks/hooks.ts';
import { deliver, newEvent, testHook, type DeliveryDeps } from '../services/webhooks/hook-delivery.ts';
import { findHookLog, flagOfTrigger, listHookLogs } from '../services/webhooks/hook-events-log.ts';
import { hooksHealth } from '../services/webhooks/hook-health.ts';
import { samplePayload } from '../services/webhooks/hook-payloads.ts';
import { flags } from '../services/instance/features.ts';
import { hit } from '../services/rate-limits.ts';
import { presentHook, presentHookEvent, presentHookHealth } from '../presenters/hooks.ts';

type Scope = hooks.HookScope;

type Loaded = RouteContext<unknown, unknown, unknown, 'group' | 'project'>;
const owner = (scope: Scope, ctx: Loaded): hooks.HookOwner => ({ scope, id: scope === 'groups' ? ctx.group.id : ctx.project!.id });
const deps = (ctx: RouteContext): DeliveryDeps => ({ db: ctx.db, vault: ctx.vault, config: ctx.config, instanceUrl: ctx.baseUrl });

/** Resends: 5 a minute per hook and user, unless the instance lifts the limit. */
const RESEND_LIMIT = 5;

/** The area, the loading and the permission of every hook route of a scope: the group ones need an Owner, the project ones a Maintainer. */
const commonOf = (scope: Scope) => ({
  area: scope === 'groups' ? 'group-hooks' : 'project-hooks',
  load: scope === 'groups' ? ('group' as const) : ('project' as const),
  permission: 'admin_hooks' as const,
});

/** Group and project hooks, written once. */
export function makeHooksRoutes(scope: Scope) {
  const base = `/${scope}/:id/hooks`;
  const what = scope === 'groups' ? 'group' : 'project';
  const common = commonOf(scope);
  /** The hook named by :hook_id, among this group's or project's own. */
  const withHook = {
    params: { hook_id: recordId('Hook') },
    with: { hook: (ctx: Loaded & { params: { hook_id: number } }) => hooks.findHook(ctx.db, owner(scope, ctx), ctx.params.hook_id) },
  };
  return [
    defineRoute({
      ...common,
      method: 'get',
      path: base,
      summary: `List the ${what}'s webhooks`,
      query: paginationQuery,
      response: z.array(webhook),
      handler: async (ctx) => hooks.listHooks(ctx.db, owner(scope, ctx), pageRequest(ctx.query)),
      present: (h, ctx) => presentHook(h, ctx.vault),
    }),
    defineRoute({
      ...common,
      ...withHook,
      method: 'get',
      path: `${base}/:hook_id`,
      summary: `Get a ${what} webhook`,
      response: webhook,
      handler: async (ctx) => ctx.hook,
      present: (h, ctx) => presentHook(h, ctx.vault),
    }),
    defineRoute({
      ...common,
      method: 'post',
      path: base,
      summary: `Add a ${what} webhook`,
      body: hookCreateBody,
      response: webhook,
      errors: [422],
      handler: async (ctx) => hooks.createHook(ctx.db, ctx.vault, owner(scope, ctx), ctx.body),
      present: (h, ctx) => presentHook(h, ctx.vault),
    }),
    defineRoute({
      ...common,
      ...withHook,
      method: 'put',
      path: `${base}/:hook_id`,
      summary: `Change a ${what} webhook (at least one parameter)`,
      body: hookUpdateBody,
      response: webhook,
      errors: [422],
      handler: async (ctx) => hooks.updateHook(ctx.db, ctx.vault, owner(scope, ctx), ctx.hook, ctx.body),
      present: (h, ctx) => presentHook(h, ctx.vault),
    }),
    defineRoute({
      ...common,
      ...withHook,
      method: 'delete',
      path: `${base}/:hook_id`,
      summary: `Delete a ${what} webhook and its delivery log`,
      handler: async (ctx) => hooks.deleteHook(ctx.db, ctx.hook),
    }),
    defineRoute({
      ...common,
      params: { ...withHook.params, trigger: z.string().refine((t) => hookFlagsFor(scope).includes(t as HookFlag), `must be one of ${hookFlagsFor(scope).join(', ')}`) },
      with: withHook.with,
      method: 'post',
      path: `${base}/:hook_id/test/:trigger`,
      summary: `Send a sample event of one kind to a ${what} webhook (also when it is disabled): 201 when the receiver answers 2xx, 422 with the reason otherwise`,
      response: hookTestResult,
      errors: [422],
      handler: async (ctx) => {
        const flag = ctx.params.trigger as HookFlag;
        const data = samplePayload(flag, { baseUrl: ctx.baseUrl, user: ctx.actor.user, group: ctx.group, project: scope === 'projects' ? ctx.project : undefined });
        await testHook(deps(ctx), ctx.hook, newEvent(flag, data));
        return { message: '201 Created' };
      },
    }),
    defineRoute({
      ...common,
      ...withHook,
      method: 'get',
      path: `${base}/:hook_id/events`,
      summary: `The ${what} webhook's deliveries of the past seven days; status is a code or successful, client_failure, server_failure`,
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
        log: (ctx: Loaded & { params: { hook_event_id: number }; hook: WebHookRow }) => findHookLog(ctx.db, ctx.hook, ctx.params.hook_event_id),
      },
      method: 'post',
      path: `${base}/:hook_id/events/:hook_event_id/resend`,
      summary: `Deliver a logged event again with its original Idempotency-Key (5 a minute per hook and user)`,
      response: resendResult,
      errors: [422, 429],
      handler: async (ctx) => {
        const { hook, log } = ctx;
        if (await flags.enabled(ctx.db, 'web_hook_event_resend_api_endpoint_rate_limit')) {
          const state = await hit(ctx.db, `hook_resend:${hook.id}:${ctx.actor.user!.id}`, 60_000, 1);
          if (state.count > RESEND_LIMIT) throw tooManyRequests(state.retryAfterSeconds);
        }
        const flag = flagOfTrigger(log.trigger) ?? 'push_events';
        const data = JSON.parse(log.request_data) as Record<string, unknown>;
        const again = await deliver(deps(ctx), { ...hook, custom_webhook_template: null }, { flag, data, eventUuid: log.event_uuid, idempotencyKey: log.idempotency_key });
        if (again.response_status === 'internal error') {
          throw unprocessable(`Resend failed: ${again.internal_error_message}`);
        }
        return { response_status: Number(again.response_status) };
      },
    }),
  ];
}

export const hookRoutes = [...makeHooksRoutes('groups'), ...makeHooksRoutes('projects')];

/**
 * The console's list of hooks reads their health in one request, whatever their number: for
 * each hook of the list's page (same order and paging as GET …/hooks), what the delivery log
 * would say of it. Under /api/console: the platform has no such endpoint. Whoever may list the
 * hooks may read it.
 */
function makeHookHealthRoute(scope: Scope) {
  return defineRoute({
    ...commonOf(scope),
    mount: 'console',
    method: 'get',
    path: `/${scope}/:id/hooks/health`,
    summary: `How each of the ${scope === 'groups' ? 'group' : 'project'}'s webhooks (a page, as listed) delivered in the past seven days: deliveries and failures counted up to 10,000, the newest delivery and the newest failure`,
    query: paginationQuery,
    response: z.array(hookHealth),
    handler: async (ctx) => hooksHealth(ctx.db, owner(scope, ctx), pageRequest(ctx.query)),
    present: (h) => presentHookHealth(h),
  });
}

export const hookConsoleRoutes = [makeHookHealthRoute('groups'), makeHookHealthRoute('projects')];
