import type { WebHookLogRow, WebHookRow } from '../db/schema.ts';
import type { Vault } from '../auth/vault.ts';
import { hookFlagsFor, type HookEvent, type HookHealth, type Webhook } from '../../../shared/src/hooks.ts';
import { bool, json } from '../util/rows.ts';
import { alertStatus, hookSecrets, maskUrlCredentials } from '../services/webhooks/hooks.ts';
import type { HookHealth as HookHealthFigures } from '../services/webhooks/hook-health.ts';

/** A hook as the spec shows it: header and variable keys without values, never the token. */
export function presentHook(h: WebHookRow, vault: Vault): Webhook {
  const secrets = hookSecrets(vault, h);
  const scope = h.scope === 'group' ? 'groups' : h.scope === 'system' ? 'system' : 'projects';
  const out: Webhook = {
    id: h.id,
    url: maskUrlCredentials(h.url),
    name: h.name,
    description: h.description,
    created_at: h.created_at,
    ...(h.scope === 'group' ? { group_id: h.group_id! } : h.scope === 'project' ? { project_id: h.project_id! } : {}),
    enable_ssl_verification: bool(h.enable_ssl_verification),
    alert_status: alertStatus(h),
    disabled_until: alertStatus(h) === 'temporarily_disabled' ? h.disabled_until : null,
    url_variables: secrets.urlVariables.map((v) => ({ key: v.key })),
    push_events_branch_filter: h.push_events_branch_filter,
    branch_filter_strategy: h.branch_filter_strategy as Webhook['branch_filter_strategy'],
    custom_webhook_template: h.custom_webhook_template,
    custom_headers: secrets.customHeaders.map((c) => ({ key: c.key })),
  };
  for (const flag of hookFlagsFor(scope)) out[flag] = bool(h[flag]);
  return out;
}

export function presentHookEvent(l: WebHookLogRow): HookEvent {
  return {
    id: l.id,
    url: maskUrlCredentials(l.url),
    trigger: l.trigger,
    request_headers: json<Record<string, string>>(l.request_headers, {}),
    request_data: json<unknown>(l.request_data, null),
    response_headers: json<Record<string, string>>(l.response_headers, {}),
    response_body: l.response_body,
    execution_duration: Number(l.execution_duration),
    response_status: l.response_status,
    internal_error_message: l.internal_error_message,
    created_at: l.created_at,
  };
}

/** A hook's health: its figures, and its newest delivery and newest failure shown as the log shows them. */
export function presentHookHealth(h: HookHealthFigures): HookHealth {
  return {
    hook_id: h.hookId,
    total: h.total,
    failed: h.failed,
    latest: h.latest && presentHookEvent(h.latest),
    last_failure: h.lastFailure && presentHookEvent(h.lastFailure),
  };
}
