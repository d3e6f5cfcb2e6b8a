import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import type { Db } from '../../db/index.ts';
import type { Database, WebHookLogRow, WebHookRow } from '../../db/schema.ts';
import { HOOK_EVENTS, SYSTEM_EVENTS, type HookFlag } from '../../../../shared/src/hooks.ts';
import { notFound } from '../../util/errors.ts';
import { offsetPage, type Page, type PageRequest } from '../../db/pagination.ts';

/** The delivery log shows the past seven days. */
export const LOG_WINDOW_DAYS = 7;

const STATUS_RANGES: Record<string, [string, string]> = {
  successful: ['200', '299'],
  client_failure: ['400', '499'],
  server_failure: ['500', '599'],
};

type LogExpressions = ExpressionBuilder<Database, 'web_hook_logs'>;

/** The start of the log's window: deliveries from then on are shown (and counted by the hooks' health). */
export const logWindowStart = (now = Date.now()) => new Date(now - LOG_WINDOW_DAYS * 86_400_000).toISOString();

/**
 * The log's `status` filter: a category (successful, client_failure, server_failure) or an
 * exact code. Deliveries that got no HTTP answer at all (timeouts, refused connections, blocked
 * addresses) count with the server failures. The hooks' health counts failures with it too.
 */
export function statusFilter(eb: LogExpressions, status: string): Expression<SqlBool> {
  const range = Object.hasOwn(STATUS_RANGES, status) ? STATUS_RANGES[status] : undefined;
  if (!range) return eb('web_hook_logs.response_status', '=', status);
  const [lo, hi] = range;
  const inRange = eb.and([eb('web_hook_logs.response_status', '>=', lo), eb('web_hook_logs.response_status', '<=', hi), eb('web_hook_logs.response_status', '!=', 'internal error')]);
  return status === 'server_failure' ? eb.or([inRange, eb('web_hook_logs.response_status', '=', 'internal error')]) : inRange;
}

export async function listHookLogs(db: Db, hook: WebHookRow, q: { status?: string; trigger?: string }, page: PageRequest): Promise<Page<WebHookLogRow>> {
  let query = db.selectFrom('web_hook_logs').where('web_hook_id', '=', hook.id).where('created_at', '>=', logWindowStart());
  if (q.status) {
    const status = q.status;
    query = query.where((eb) => statusFilter(eb, status));
  }
  if (q.trigger) query = query.where('trigger', '=', q.trigger);
  return offsetPage(db, query.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc'), page);
}

export async function findHookLog(db: Db, hook: WebHookRow, id: number): Promise<WebHookLogRow> {
  const row = await db.selectFrom('web_hook_logs').selectAll().where('id', '=', id).where('web_hook_id', '=', hook.id).executeTakeFirst();
  if (!row) throw notFound('Hook Log');
  return row;
}

export const flagOfTrigger = (trigger: string): HookFlag | 'system_hooks' | undefined =>
  trigger === SYSTEM_EVENTS.trigger ? 'system_hooks' : (Object.keys(HOOK_EVENTS) as HookFlag[]).find((f) => HOOK_EVENTS[f].trigger === trigger);
