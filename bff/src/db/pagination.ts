import { sql, type SelectQueryBuilder } from 'kysely';
import { validationFailed } from '../util/errors.ts';
import { preparedByShape, type Db } from './index.ts';

/**
 * Pages of lists, counted and sliced in the database: offset pages (`page`/`per_page`, with a
 * total up to MAX_COUNT) and keyset pages (a cursor after the last row, no total). Every list uses these; the
 * HTTP layer turns a Page into the platform's headers.
 */
export const DEFAULT_PER_PAGE = 20;
export const MAX_PER_PAGE = 100;

/** One page of a list, with what the pagination headers need. */
export class Page<T> {
  constructor(
    readonly items: T[],
    readonly page: number,
    readonly perPage: number,
    /** Total count for offset pagination; undefined for keyset pages and lists past MAX_COUNT. */
    readonly total?: number,
    /** Keyset pagination: the cursor of the next page, if there is one. */
    readonly nextCursor?: string | null,
    /** An offset page of a list too long to count (no total): whether a next page exists. */
    readonly hasNext?: boolean,
  ) {}

  map<U>(fn: (item: T) => U): Page<U> {
    return new Page(this.items.map(fn), this.page, this.perPage, this.total, this.nextCursor, this.hasNext);
  }

  async mapAsync<U>(fn: (items: T[]) => Promise<U[]>): Promise<Page<U>> {
    return new Page(await fn(this.items), this.page, this.perPage, this.total, this.nextCursor, this.hasNext);
  }
}

export interface PageRequest {
  page: number;
  perPage: number;
  limit: number;
  offset: number;
}

/** page defaults to 1; per_page to 20 and, as on the platform, is capped at 100. */
export function pageRequest(query: { page?: number; per_page?: number }): PageRequest {
  const page = query.page ?? 1;
  const perPage = Math.min(query.per_page ?? DEFAULT_PER_PAGE, MAX_PER_PAGE);
  return { page, perPage, limit: perPage, offset: (page - 1) * perPage };
}

/**
 * Lists are counted up to this many rows: past it, as on the platform, a page carries no
 * X-Total, X-Total-Pages or "last" link (counting a million rows for a header would cost more
 * than the page), and whether a next page exists is learnt by reading one row more.
 */
export const MAX_COUNT = 10_000;

/** The rows of `query` counted, up to MAX_COUNT + 1 (its selection and order dropped, its rows limited). */
const cappedCount = (db: Db, query: SelectQueryBuilder<any, any, unknown>) => // eslint-disable-line @typescript-eslint/no-explicit-any
  db
    .selectFrom(
      query
        .clearSelect()
        .clearOrderBy()
        .select(sql<number>`1`.as('one'))
        .limit(MAX_COUNT + 1)
        .as('capped'),
    )
    .select(sql<number>`count(*)`.as('total'));

/**
 * The page from its rows and its count. The count is either capped (cappedCount: MAX_COUNT + 1
 * means "more") or exact (the events' numbered ranges know theirs); past MAX_COUNT both are shown
 * as uncounted, as on the platform. A next page exists when a row beyond the page was read (the
 * rows may hold one more than asked) or, for an exact count, when the count reaches past the
 * page (those lists read exactly the page's rows).
 */
export function offsetPageOf<O>(rows: O[], counted: number, page: PageRequest): Page<O> {
  const items = rows.slice(0, page.limit);
  if (counted <= MAX_COUNT) return new Page(items, page.page, page.perPage, counted);
  return new Page(items, page.page, page.perPage, undefined, undefined, rows.length > page.limit || page.offset + page.limit < counted);
}

/**
 * An offset page of a query that selects and orders its rows: the same query counted (up to
 * MAX_COUNT) and sliced.
 */
export async function offsetPage<DB, TB extends keyof DB, O>(db: Db, query: SelectQueryBuilder<DB, TB, O>, page: PageRequest): Promise<Page<O>> {
  const counted = await cappedCount(db, query).executeTakeFirst();
  const items = await query
    .limit(page.limit + 1)
    .offset(page.offset)
    .execute();
  return offsetPageOf(items, Number(counted?.total ?? 0), page);
}

/**
 * offsetPage for a list built by shape (see preparedByShape): one query per page, compiled once
 * per shape and run with the values of each call, its count (up to MAX_COUNT) a subquery
 * beside the page's rows (one round trip on PostgreSQL). Only a page past the end, which has
 * no row to carry the count, counts apart. With `keep`, the reads are kept as prepared's are
 * (when every table they read is watched).
 */
export function preparedOffsetPage<S, V extends Record<string, unknown>, O>(
  build: (db: Db, values: V, shape: S) => SelectQueryBuilder<any, any, O>, // eslint-disable-line @typescript-eslint/no-explicit-any
  opts: { keep?: boolean } = {},
): (db: Db, shape: S, values: V, page: PageRequest) => Promise<Page<O>> {
  const keep = opts.keep ? ('if-watched' as const) : undefined;
  const counted = preparedByShape((db, v: V, shape: S) => cappedCount(db, build(db, v, shape)), { keep });
  const sliced = preparedByShape(
    (db, v: V & { limit: number; offset: number }, shape: S) =>
      build(db, v, shape)
        // Last, so that removing it leaves each row the object the list's query would return.
        .select(() => cappedCount(db, build(db, v, shape)).as(TOTAL))
        .limit(v.limit)
        .offset(v.offset),
    { keep },
  );
  return async (db, shape, values, page) => {
    const rows = (await sliced(db, shape, { ...values, limit: page.limit + 1, offset: page.offset })) as (O & { [TOTAL]?: number })[];
    if (!rows.length) {
      const total = page.offset === 0 ? 0 : Number((await counted(db, shape, values))[0]?.total ?? 0);
      return offsetPageOf([], total, page);
    }
    const { items, total } = withoutTotal(rows);
    return offsetPageOf(items, total, page);
  };
}
const TOTAL = 'gatehouse_total';

/**
 * The rows without their count column, and the count. Fresh rows lose their last property in
 * place, which keeps V8's fast objects (a rest copy would copy every field); kept rows (frozen,
 * shared by every caller) are split once.
 */
function withoutTotal<O>(rows: (O & { [TOTAL]?: number })[]): { items: O[]; total: number } {
  const total = Number(rows[0]![TOTAL] ?? 0);
  if (!Object.isFrozen(rows)) {
    for (const row of rows) delete row[TOTAL];
    return { items: rows, total };
  }
  let split = splitKeptPages.get(rows) as { items: O[]; total: number } | undefined;
  if (!split) {
    const items = rows.map((row) => {
      const { [TOTAL]: _, ...item } = row;
      return Object.freeze(item) as O;
    });
    splitKeptPages.set(rows, (split = { items: Object.freeze(items) as O[], total }));
  }
  return split;
}
const splitKeptPages = new WeakMap<object, { items: unknown[]; total: number }>();

interface Keyset {
  value: string | number;
  id: number;
}
const encodeCursor = (k: Keyset) => Buffer.from(JSON.stringify(k)).toString('base64url');
function decodeCursor(cursor: string): Keyset {
  try {
    const k = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Keyset;
    if (Number.isSafeInteger(k.id) && (typeof k.value === 'string' || Number.isSafeInteger(k.value))) return k;
  } catch {
    /* fall through */
  }
  throw validationFailed({ cursor: ['is invalid'] });
}

/**
 * A keyset page ordered by `column` then `id`: the rows after the cursor's (value, id), one
 * more than asked to learn whether a next page exists.
 */
export async function keysetPage<DB, TB extends keyof DB, O extends { id: number }>(
  query: SelectQueryBuilder<DB, TB, O>,
  opts: { column: string; dir: 'asc' | 'desc'; cursor?: string; perPage: number; valueOf: (row: O) => string | number },
): Promise<Page<O>> {
  let q = query;
  const col = sql.ref(opts.column);
  const op = sql.raw(opts.dir === 'asc' ? '>' : '<');
  if (opts.cursor) {
    const k = decodeCursor(opts.cursor);
    q =
      opts.column === 'id'
        ? q.where(sql<boolean>`${col} ${op} ${Number(k.value)}`)
        : q.where(sql<boolean>`(${col} ${op} ${String(k.value)} OR (${col} = ${String(k.value)} AND ${sql.ref('id')} ${op} ${k.id}))`);
  }
  const rows = await q
    .orderBy(col, opts.dir)
    .orderBy(sql.ref('id'), opts.dir)
    .limit(opts.perPage + 1)
    .execute();
  const items = rows.slice(0, opts.perPage);
  const last = items[items.length - 1];
  const next = rows.length > opts.perPage && last ? encodeCursor({ value: opts.valueOf(last), id: last.id }) : null;
  return new Page(items, 1, opts.perPage, undefined, next);
}

/** An offset page of a list that is not in the database (a repository's branches): counted and sliced in memory. */
export function pageOfList<T>(items: T[], page: PageRequest): Page<T> {
  return new Page(items.slice(page.offset, page.offset + page.limit), page.page, page.perPage, items.length);
}
