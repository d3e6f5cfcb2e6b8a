import { sql, type ExpressionBuilder } from 'kysely';
import type { Db } from '../../db/index.ts';
import type { Database, WebHookLogRow } from '../../db/schema.ts';
import { MAX_COUNT, offsetPage, type Page, type PageRequest } from '../../db/pagination.ts';
import { logWindowStart, statusFilter } from './hook-events-log.ts';
import { ownedBy, type HookOwner } from './hooks.ts';

/** The log's categories a delivery failed by: no 2xx, whether the receiver answered (4xx) or not (5xx, timeouts, refused). */
const FAILURES = ['client_failure', 'server_failure'] as const;

/** How one hook's deliveries of the log's window went, in the figures the log itself gives. */
export interface HookHealth {
  hookId: number;
  /** Deliveries, counted up to MAX_COUNT like every list; null past it. */
  total: number | null;
  /** Client plus server failures, each counted up to MAX_COUNT; null when either is past it. */
  failed: number | null;
  /** The log's first record, and its first record filtered by either failure category. */
  latest: WebHookLogRow | null;
  lastFailure: WebHookLogRow | null;
}

type OnHook = ExpressionBuilder<Database, 'web_hooks'>;

/**
 * The health of a page of an owner's hooks (the list's page: same order, same slicing), in a
 * fixed number of queries however many hooks the page holds: one counts the page, one reads,
 * for each of its hooks at once, the capped counts and the ids of the newest delivery and the
 * newest failure (each a subquery on the hook's index range, as the log's own count and first
 * page read it), one reads those deliveries.
 */
export async function hooksHealth(db: Db, owner: HookOwner, page: PageRequest): Promise<Page<HookHealth>> {
  const since = logWindowStart();
  /** The hook's deliveries of the window, with a status of one of `statuses` if any are named. */
  const deliveries = (eb: OnHook, statuses: readonly string[]) =>
    eb
      .selectFrom('web_hook_logs')
      .whereRef('web_hook_logs.web_hook_id', '=', 'web_hooks.id')
      .where('web_hook_logs.created_at', '>=', since)
      .$if(statuses.length > 0, (q) => q.where((l) => l.or(statuses.map((s) => statusFilter(l, s)))));
  /** Counted as offsetPage counts a list: no further than one past MAX_COUNT. */
  const counted = (eb: OnHook, statuses: readonly string[]) =>
    eb
      .selectFrom(
        deliveries(eb, statuses)
          .select(sql<number>`1`.as('one'))
          .limit(MAX_COUNT + 1)
          .as('capped'),
      )
      .select((c) => c.fn.countAll<number>().as('n'));
  /** The log's first record: newest first, as the log orders them. */
  const newest = (eb: OnHook, statuses: readonly string[]) =>
    deliveries(eb, statuses).select('web_hook_logs.id').orderBy('web_hook_logs.created_at', 'desc').orderBy('web_hook_logs.id', 'desc').limit(1);

  const figures = await offsetPage(
    db,
    db
      .selectFrom('web_hooks')
      .where(ownedBy(owner))
      .select((eb) => [
        'web_hooks.id as hook_id',
        counted(eb, []).as('total'),
        counted(eb, ['client_failure']).as('client_failures'),
        counted(eb, ['server_failure']).as('server_failures'),
        newest(eb, []).as('latest_id'),
        newest(eb, FAILURES).as('last_failure_id'),
      ])
      .orderBy('web_hooks.id'),
    page,
  );

  const ids = [...new Set(figures.items.flatMap((f) => [f.latest_id, f.last_failure_id]).filter((id): id is number => id !== null))];
  const rows = ids.length ? await db.selectFrom('web_hook_logs').selectAll().where('id', 'in', ids).execute() : [];
  const byId = new Map(rows.map((r) => [r.id, r]));
  const capped = (n: number | null) => (n === null || Number(n) > MAX_COUNT ? null : Number(n));
  return figures.map((f) => {
    const client = capped(f.client_failures);
    const server = capped(f.server_failures);
    return {
      hookId: f.hook_id,
      total: capped(f.total),
      failed: client === null || server === null ? null : client + server,
      latest: (f.latest_id !== null && byId.get(f.latest_id)) || null,
      lastFailure: (f.last_failure_id !== null && byId.get(f.last_failure_id)) || null,
    };
  });
}
