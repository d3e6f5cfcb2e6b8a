import { sql } from 'kysely';
import type { Db } from '../db/index.ts';

/**
 * Fixed-window counters kept in the database, so every instance shares them.
 * `hit(db, key, windowMs, n)` adds n (0 only reads) in one atomic upsert and returns the
 * count in the current window.
 */
export async function hit(db: Db, key: string, windowMs: number, n: number): Promise<{ count: number; retryAfterSeconds: number }> {
  const now = Date.now();
  const nowIso = new Date(now).toISOString();
  const cutoff = new Date(now - windowMs).toISOString();
  let row: { count: number; window_start: string } | undefined;
  if (n === 0) {
    row = await db.selectFrom('rate_limits').select(['count', 'window_start']).where('key', '=', key).executeTakeFirst();
    if (row && row.window_start <= cutoff) row = undefined;
  } else {
    row = await db
      .insertInto('rate_limits')
      .values({ key, window_start: nowIso, count: n })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({
          count: sql<number>`CASE WHEN rate_limits.window_start <= ${cutoff} THEN CAST(${n} AS integer) ELSE rate_limits.count + CAST(${n} AS integer) END`,
          window_start: sql<string>`CASE WHEN rate_limits.window_start <= ${cutoff} THEN ${nowIso} ELSE rate_limits.window_start END`,
        }),
      )
      .returning(['count', 'window_start'])
      .executeTakeFirstOrThrow();
  }
  const windowStart = row ? Date.parse(row.window_start) : now;
  return { count: row?.count ?? 0, retryAfterSeconds: Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000)) };
}

export async function clear(db: Db, key: string): Promise<void> {
  await db.deleteFrom('rate_limits').where('key', '=', key).execute();
}
