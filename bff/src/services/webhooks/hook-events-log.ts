import type { Db } from '../../db/index.ts';
import type { WebHookLogRow, WebHookRow } from '../../db/schema.ts';
import { HOOK_EVENTS, type HookFlag } from '../../../../shared/src/hooks.ts';
import { notFound } from '../../util/errors.ts';
import { offsetPage, type Page, type PageRequest } from '../../db/pagination.ts';

/** The delivery log shows the past seven days. */
export const LOG_WINDOW_DAYS = 7;

const STATUS_RANGES: Record<string, [string, string]> = {
  successful: ['200', '299'],
  client_failure: ['400', '499'],
  server_failure: ['500', '599'],
};

export async function listHookLogs(db: Db, hook: WebHookRow, q: { status?: string; trigger?: string }, page: PageRequest): Promise<Page<WebHookLogRow>> {
  let query = db
    .selectFrom('web_hook_logs')
    .where('web_hook_id', '=', hook.id)
    .where('created_at', '>=', new Date(Date.now() - LOG_WINDOW_DAYS * 86_400_000).toISOString());
  if (q.status && STATUS_RANGES[q.status]) {
    const [lo, hi] = STATUS_RANGES[q.status];
    // Deliveries that got no HTTP answer at all count with the server failures.
    query = query.where((eb) => {
      const inRange = eb.and([eb('response_status', '>=', lo), eb('response_status', '<=', hi), eb('response_status', '!=', 'internal error')]);
      return q.status === 'server_failure' ? eb.or([inRange, eb('response_status', '=', 'internal error')]) : inRange;
    });
  } else if (q.status) {
    query = query.where('response_status', '=', q.status);
  }
  if (q.trigger) query = query.where('trigger', '=', q.trigger);
  return offsetPage(db, query.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc'), page);
}

export async function findHookLog(db: Db, hook: WebHookRow, id: number): Promise<WebHookLogRow> {
  const row = await db.selectFrom('web_hook_logs').selectAll().where('id', '=', id).where('web_hook_id', '=', hook.id).executeTakeFirst();
  if (!row) throw notFound('Hook Log');
  return row;
}

export const flagOfTrigger = (trigger: string): HookFlag | undefined =>
  (Object.keys(HOOK_EVENTS) as HookFlag[]).find((f) => HOOK_EVENTS[f].trigger === trigger);
