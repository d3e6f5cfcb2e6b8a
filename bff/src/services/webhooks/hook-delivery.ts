import crypto from 'node:crypto';
import type { Db } from '../../db/index.ts';
import type { JobRow, WebHookLogRow, WebHookRow } from '../../db/schema.ts';
import type { Vault } from '../../auth/vault.ts';
import type { Config } from '../../config.ts';
import { z } from 'zod';
import { GROUP_ONLY_HOOK_FLAGS, HOOK_EVENTS, HOOK_FLAGS, SYSTEM_EVENTS, SYSTEM_HOOK_FLAGS, type HookFlag } from '../../../../shared/src/hooks.ts';
import { quoteRe2, re2Problem, re2Test } from '../../../../shared/src/re2.ts';
import { postJsonOnSender } from '../../outbound/sender.ts';
import { enqueueMany } from '../../queue/queue.ts';
import { isPostgres } from '../../db/dialect.ts';
import { jobTicket, type JobDeps } from '../../queue/define.ts';
import { padded, rowChunks } from '../../queue/statement-sizes.ts';
import { nowIso, isoPlus } from '../../util/time.ts';
import { json } from '../../util/rows.ts';
import { countDelivery } from '../../util/metrics.ts';
import { alertStatus, hookSecrets, resolveUrl } from './hooks.ts';
import { getSettings } from '../instance/application-settings.ts';
import { unprocessable } from '../../util/errors.ts';
import { ancestorIds } from '../../policies/access.ts';

/** What a delivery needs besides the database: the key to the secrets and where we are. */
export interface DeliveryDeps {
  db: Db;
  vault: Vault;
  config: Config;
  /** Sent as X-Service-Instance. */
  instanceUrl: string;
}

/** What an event is delivered as: a flag's event, or a system event (to system hooks only). */
export type DeliveryFlag = HookFlag | 'system_hooks';

export interface HookEvent {
  flag: DeliveryFlag;
  data: Record<string, unknown>;
  eventUuid: string;
  idempotencyKey: string;
}

/** After 4 consecutive failures a hook rests, from 1 minute doubling up to 24 hours; after 40 it stops. */
export const TEMPORARY_DISABLE_AFTER = 4;
export const PERMANENT_DISABLE_AFTER = 40;
const BACKOFF_START_MS = 60_000;
const BACKOFF_MAX_MS = 24 * 3_600_000;
const LOG_BODY_LIMIT = 16 * 1024;

/** `{{a.b}}` placeholders filled from the payload: strings JSON-escaped, other values as JSON. */
export function applyTemplate(template: string, data: unknown): string {
  return template.replace(/\{\{\s*([A-Za-z0-9_.]+)\s*\}\}/g, (_m, path: string) => {
    const value = path.split('.').reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), data);
    if (value === undefined || value === null) return '';
    return typeof value === 'string' ? JSON.stringify(value).slice(1, -1) : JSON.stringify(value);
  });
}

/**
 * Does a push to `ref` pass the hook's branch filter? As the platform's ActiveHookFilter: a
 * regex filter is RE2, searched unanchored in the branch name (UntrustedRegexp#===), and a
 * filter RE2 refuses (saved before it was checked) matches nothing. Wildcards are matched with
 * RE2 too, so no filter, however written, can hold delivery up.
 */
export function branchMatches(hook: Pick<WebHookRow, 'push_events_branch_filter' | 'branch_filter_strategy'>, ref: string): boolean {
  const filter = hook.push_events_branch_filter;
  if (!filter || hook.branch_filter_strategy === 'all_branches') return true;
  const branch = ref.replace(/^refs\/heads\//, '');
  if (hook.branch_filter_strategy === 'regex') return !re2Problem(filter) && re2Test(filter, branch);
  // Wildcard: `*` matches anything; several patterns may be separated by commas.
  return filter
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean)
    .some((f) => re2Test(`^${f.split('*').map(quoteRe2).join('.*')}$`, branch));
}

export function newEvent(flag: DeliveryFlag, data: Record<string, unknown>): HookEvent {
  return { flag, data, eventUuid: crypto.randomUUID(), idempotencyKey: crypto.randomUUID() };
}

/** An event's JSON, written once for all the hooks it goes to (a batch's jobs share the event's object). */
const eventBodies = new WeakMap<object, string>();
function eventJson(data: Record<string, unknown>): string {
  let body = eventBodies.get(data);
  if (body === undefined) {
    body = JSON.stringify(data);
    eventBodies.set(data, body);
  }
  return body;
}

/**
 * The platform's own names of the spec's headers (its WebHookService sends X-Gitlab-*), sent
 * beside them with the same values, so receivers written for the platform (CI servers' plugins,
 * portals, chat bots) read a delivery unchanged. Idempotency-Key has one name on both.
 */
export const PLATFORM_HEADER_NAMES = {
  'X-Service-Event': 'X-Gitlab-Event',
  'X-Service-Webhook-UUID': 'X-Gitlab-Webhook-UUID',
  'X-Service-Instance': 'X-Gitlab-Instance',
  'X-Service-Event-UUID': 'X-Gitlab-Event-UUID',
  'X-Service-Token': 'X-Gitlab-Token',
} as const;
/** The headers that carry the secret token: sent in clear, logged redacted. */
const TOKEN_HEADERS = ['X-Service-Token', PLATFORM_HEADER_NAMES['X-Service-Token']];

function withPlatformNames(headers: Record<string, string>): void {
  for (const [spec, platform] of Object.entries(PLATFORM_HEADER_NAMES)) if (headers[spec] !== undefined) headers[platform] = headers[spec];
}

/** A delivery made but not yet written: its log row, and whether the receiver took it (2xx). */
export interface DeliveryOutcome {
  log: Omit<WebHookLogRow, 'id'>;
  ok: boolean;
  hookUuid: string;
}

/**
 * One delivery: the POST with the spec's headers and the platform's names of them, the template
 * and URL variables applied; what its log shows. Written by `recordDeliveries`, with the job's completion when it is one.
 */
async function send(deps: DeliveryDeps, hook: WebHookRow, event: HookEvent, allowLocal: boolean): Promise<DeliveryOutcome> {
  const { token, customHeaders, urlVariables } = hookSecrets(deps.vault, hook);
  const meta = event.flag === 'system_hooks' ? SYSTEM_EVENTS : HOOK_EVENTS[event.flag];
  // A system hook is told every event as a system hook's, as on the platform.
  const header = hook.scope === 'system' ? SYSTEM_EVENTS.header : meta.header;
  const body = hook.custom_webhook_template ? applyTemplate(hook.custom_webhook_template, event.data) : eventJson(event.data);
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'User-Agent': 'Gatehouse/0.1',
    'Idempotency-Key': event.idempotencyKey,
    'X-Service-Event': header,
    'X-Service-Webhook-UUID': hook.uuid,
    'X-Service-Instance': deps.instanceUrl,
    'X-Service-Event-UUID': event.eventUuid,
  };
  if (token) headers['X-Service-Token'] = token;
  withPlatformNames(headers);
  for (const h of customHeaders) headers[h.key] = h.value;
  const result = await postJsonOnSender({
    url: resolveUrl(hook.url, urlVariables),
    headers,
    body,
    timeoutMs: deps.config.hookTimeoutMs,
    verifyTls: hook.enable_ssl_verification === 1,
    allowLocal,
  });

  // What the log shows: the token and custom header values redacted, the URL with its variables masked.
  const logged = { ...headers };
  for (const name of TOKEN_HEADERS) if (logged[name]) logged[name] = '[REDACTED]';
  for (const h of customHeaders) logged[h.key] = '[REDACTED]';
  // The body is the event's JSON unless a template made it something else.
  const requestData = hook.custom_webhook_template ? JSON.stringify(json(body, body)) : body;
  const ok = result.status !== null && result.status >= 200 && result.status < 300;
  countDelivery(ok ? 'success' : result.status === null ? 'unreachable' : 'http_error');
  return {
    ok,
    hookUuid: hook.uuid,
    log: {
      web_hook_id: hook.id,
      trigger: meta.trigger,
      url: hook.url,
      request_headers: JSON.stringify(logged),
      request_data: requestData,
      response_headers: JSON.stringify(result.headers),
      response_body: result.body.slice(0, LOG_BODY_LIMIT),
      response_status: result.status === null ? 'internal error' : String(result.status),
      execution_duration: Math.round(result.durationMs) / 1000,
      internal_error_message: result.error ?? null,
      idempotency_key: event.idempotencyKey,
      event_uuid: event.eventUuid,
      created_at: nowIso(),
    },
  };
}


/**
 * Writes deliveries in the caller's transaction: their log rows, and each hook's failure count
 * as if they had been written one by one in this order (a success clears it; failures count up
 * to a rest, then to disabling). Returns the log ids in order.
 */
export async function recordDeliveries(trx: Db, outcomes: DeliveryOutcome[]): Promise<number[]> {
  const ids: number[] = [];
  for (const part of rowChunks(trx, outcomes)) {
    const rows = await trx
      .insertInto('web_hook_logs')
      .values(part.map((o) => o.log))
      .returning('id')
      .execute();
    ids.push(...rows.map((r) => r.id));
  }
  await countFailures(trx, outcomes);
  return ids;
}

/** What a hook's deliveries decide: whether it rests or is disabled. */
type FailureState = Pick<WebHookRow, 'recent_failures' | 'backoff_count' | 'disabled_until' | 'permanently_disabled'>;
const CLEAR: FailureState = { recent_failures: 0, backoff_count: 0, disabled_until: null, permanently_disabled: 0 };

/** A hook's state after deliveries that succeeded (true) or failed (false), in this order. */
function afterDeliveries(state: FailureState, oks: boolean[]): FailureState {
  let next = { ...state };
  for (const ok of oks) {
    if (ok) {
      next = { ...CLEAR };
      continue;
    }
    next.recent_failures++;
    if (next.recent_failures >= PERMANENT_DISABLE_AFTER) {
      Object.assign(next, { permanently_disabled: 1, disabled_until: null });
    } else if (next.recent_failures >= TEMPORARY_DISABLE_AFTER) {
      next.disabled_until = isoPlus(Math.min(BACKOFF_START_MS * 2 ** next.backoff_count, BACKOFF_MAX_MS));
      next.backoff_count++;
    }
  }
  return next;
}

async function countFailures(trx: Db, outcomes: DeliveryOutcome[]): Promise<void> {
  const byHook = new Map<number, boolean[]>();
  for (const o of outcomes) {
    const oks = byHook.get(o.log.web_hook_id);
    if (oks) oks.push(o.ok);
    else byHook.set(o.log.web_hook_id, [o.ok]);
  }
  const failed = [...byHook].filter(([, oks]) => oks.includes(false)).map(([id]) => id);
  const succeeded = [...byHook].filter(([, oks]) => !oks.includes(false)).map(([id]) => id);
  // Only rows that change are read and written: a hook that failed, or that succeeded while it
  // still had failures on record. On PostgreSQL they are locked in id order, so that concurrent
  // batches neither lose a count nor deadlock.
  let rows = trx
    .selectFrom('web_hooks')
    .select(['id', 'uuid', 'recent_failures', 'backoff_count', 'disabled_until', 'permanently_disabled'])
    .where((eb) =>
      eb.or([
        ...(failed.length ? [eb('id', 'in', padded(failed))] : []),
        ...(succeeded.length
          ? [
              eb.and([
                eb('id', 'in', padded(succeeded)),
                eb.or([eb('recent_failures', '!=', 0), eb('backoff_count', '!=', 0), eb('disabled_until', 'is not', null), eb('permanently_disabled', '!=', 0)]),
              ]),
            ]
          : []),
      ]),
    )
    .orderBy('id');
  if (isPostgres(trx)) rows = rows.forUpdate();
  const changes = (await rows.execute()).map(({ id, uuid, ...row }) => ({ id, uuid, next: afterDeliveries(row, byHook.get(id)!) }));
  // From here on this process judges these hooks by the state written, not by the outcomes.
  const at = performance.now();
  for (const { uuid, next } of changes) lastWritten.set(uuid, { state: next, at });
  forget(outcomes);
  for (const { id, next } of changes) {
    const { recent_failures, backoff_count, disabled_until, permanently_disabled } = next;
    await trx.updateTable('web_hooks').set({ recent_failures, backoff_count, disabled_until, permanently_disabled }).where('id', '=', id).execute();
  }
}

/**
 * One delivery now (a test, a resend), recorded at once: its log row and the hook's failure
 * count written together.
 */
export async function deliver(deps: DeliveryDeps, hook: WebHookRow, event: HookEvent): Promise<WebHookLogRow> {
  const settings = await getSettings(deps.db);
  const outcome = await send(deps, hook, event, settings.allow_local_requests_from_web_hooks_and_services);
  const [id] = await deps.db.transaction().execute((trx) => recordDeliveries(trx, [outcome]));
  return { id, ...outcome.log };
}

/**
 * A test delivery of a sample event, logged like any other. As on the platform it succeeds only
 * when the receiver answers 2xx, so scripts see a failing receiver as an error.
 */
export async function testHook(deps: DeliveryDeps, hook: WebHookRow, event: HookEvent): Promise<void> {
  const log = await deliver(deps, hook, event);
  const status = log.response_status === 'internal error' ? null : Number(log.response_status);
  if (status === null) throw unprocessable(`Hook execution failed: ${log.internal_error_message}`);
  if (status < 200 || status >= 300) throw unprocessable(`Hook executed successfully but returned HTTP ${status} ${log.response_body.slice(0, 200)}`.trim());
}

/**
 * A batch reads its hooks when it is claimed, so each delivery judges its hook by what this
 * process learnt since: the failure state it last wrote (when newer than the batch's rows) and
 * the outcomes not written yet. A hook that has just failed for the fourth time rests at once,
 * as when every delivery read its hook. Keys are hook uuids (unique across databases); an
 * outcome never written (its job's lease was lost meanwhile) is forgotten after a while.
 */
const lastWritten = new Map<string, { state: FailureState; at: number }>();
const unwritten = new Map<string, Set<DeliveryOutcome>>();
const UNWRITTEN_FORGET_MS = 10 * 60_000;

function currentState(hook: WebHookRow, loadedAt: number): FailureState {
  const known = lastWritten.get(hook.uuid);
  const base = known && known.at > loadedAt ? known.state : hook;
  const pending = unwritten.get(hook.uuid);
  if (!pending) return base;
  const stale = isoPlus(-UNWRITTEN_FORGET_MS);
  for (const o of pending) if (o.log.created_at < stale) pending.delete(o);
  return afterDeliveries(base, [...pending].map((o) => o.ok));
}
function track(outcome: DeliveryOutcome): DeliveryOutcome {
  unwritten.set(outcome.hookUuid, (unwritten.get(outcome.hookUuid) ?? new Set()).add(outcome));
  return outcome;
}
function forget(outcomes: DeliveryOutcome[]): void {
  for (const o of outcomes) {
    const set = unwritten.get(o.hookUuid);
    if (set?.delete(o) && !set.size) unwritten.delete(o.hookUuid);
  }
}

/**
 * A queued delivery (run by jobs/hook-delivery.ts): delivered unless the hook is gone, resting,
 * or this event was already recorded (a retry after a crash between the request and the job's
 * completion). A claimed batch loads its hooks and the settings once; the log rows and the
 * hooks' failure counts are written with the jobs' completion, a batch at a time.
 */
export const hookDeliveryTicket = jobTicket({
  kind: 'hook_delivery',
  payload: z.object({ hook_id: z.number().int(), idempotency_key: z.string() }),
  // The event, stored once for all its hooks.
  shared: z.object({
    flag: z.enum([...HOOK_FLAGS, ...GROUP_ONLY_HOOK_FLAGS, 'system_hooks']),
    data: z.record(z.string(), z.unknown()),
    event_uuid: z.string(),
  }),
  maxAttempts: 5,
});
type Queued = z.output<typeof hookDeliveryTicket.payload>;
type QueuedEvent = z.output<NonNullable<typeof hookDeliveryTicket.shared>>;

/** What a claimed batch of deliveries shares: their hooks and the settings, read once. */
export interface DeliveryBatch {
  hooks: Map<number, WebHookRow>;
  loadedAt: number;
  allowLocal: boolean;
}
export async function prepareDeliveries(db: Db, payloads: Queued[]): Promise<DeliveryBatch> {
  const loadedAt = performance.now();
  const ids = [...new Set(payloads.map((p) => p.hook_id))];
  const [hooks, settings] = await Promise.all([db.selectFrom('web_hooks').selectAll().where('id', 'in', padded(ids)).execute(), getSettings(db)]);
  return { hooks: new Map(hooks.map((h) => [h.id, h])), loadedAt, allowLocal: settings.allow_local_requests_from_web_hooks_and_services };
}

/** One queued delivery sent; undefined when there is nothing to send (see the ticket's note above). */
export async function deliverQueued(p: Queued, deps: JobDeps & { job: JobRow; batch: DeliveryBatch; shared: QueuedEvent }): Promise<DeliveryOutcome | undefined> {
  const hook = deps.batch.hooks.get(p.hook_id);
  if (!hook || alertStatus(currentState(hook, deps.batch.loadedAt)) !== 'executable') return undefined;
  // Logs are written with the job's completion, so only a job claimed again can find its own.
  if (deps.job.attempts > 1) {
    const done = await deps.db.selectFrom('web_hook_logs').select('id').where('web_hook_id', '=', hook.id).where('idempotency_key', '=', p.idempotency_key).executeTakeFirst();
    if (done) return undefined;
  }
  const { flag, data, event_uuid } = deps.shared;
  return track(await send(deps, hook, { flag, data, eventUuid: event_uuid, idempotencyKey: p.idempotency_key }, deps.batch.allowLocal));
}

/**
 * An event happened in a group (and maybe one of its projects): every hook of that group, its
 * ancestors and the project that subscribes to the event gets a durable delivery job, and the
 * event is stored once for all of them.
 */
export async function fireHookEvent(db: Db, where: { traversal: string; projectId?: number }, flag: HookFlag, data: Record<string, unknown>): Promise<number> {
  const projectFlag = (HOOK_FLAGS as readonly string[]).includes(flag);
  const systemFlag = (SYSTEM_HOOK_FLAGS as readonly string[]).includes(flag);
  // Only what choosing the hooks needs: a delivery reads its hook when it runs.
  const hooks = await db
    .selectFrom('web_hooks')
    .select(['id', 'push_events_branch_filter', 'branch_filter_strategy'])
    .where(flag, '=', 1)
    .where((eb) =>
      eb.or([
        eb('group_id', 'in', ancestorIds(where)),
        ...(where.projectId !== undefined && projectFlag ? [eb('project_id', '=', where.projectId)] : []),
        // The instance's system hooks hear a project's pushes and merge requests too.
        ...(where.projectId !== undefined && systemFlag ? [eb('scope', '=', 'system')] : []),
      ]),
    )
    .execute();
  const jobs = hooks
    .filter((hook) => flag !== 'push_events' || typeof data.ref !== 'string' || branchMatches(hook, data.ref))
    .map((hook) => ({ hook_id: hook.id, idempotency_key: crypto.randomUUID() }));
  await enqueueMany(db, hookDeliveryTicket, jobs, { flag, data, event_uuid: crypto.randomUUID() });
  return jobs.length;
}

/**
 * A system event (a project, group or user created, destroyed, transferred): every system hook
 * gets a durable delivery job, in the caller's transaction, the event stored once.
 */
export async function fireSystemHookEvent(db: Db, data: Record<string, unknown>): Promise<number> {
  const hooks = await db.selectFrom('web_hooks').select('id').where('scope', '=', 'system').execute();
  const jobs = hooks.map((hook) => ({ hook_id: hook.id, idempotency_key: crypto.randomUUID() }));
  if (jobs.length) await enqueueMany(db, hookDeliveryTicket, jobs, { flag: 'system_hooks', data, event_uuid: crypto.randomUUID() });
  return jobs.length;
}

/** Removes delivery log records older than the retention window. */
export async function purgeHookLogs(db: Db, retentionDays: number): Promise<number> {
  const res = await db
    .deleteFrom('web_hook_logs')
    .where('created_at', '<', new Date(Date.now() - retentionDays * 86_400_000).toISOString())
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}
