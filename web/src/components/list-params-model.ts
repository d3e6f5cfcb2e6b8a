/*
 * How a list's page, size, search and sort are read from the URL's query and written back: the
 * rules behind useListParams (list-params.ts), without React, so they are tested on their own.
 */

export type SortDir = 'asc' | 'desc';
/** A list's order; in the URL as `sort=<key>_<dir>` (`created_desc`), the API's own shape where it has one. */
export interface Sort<K extends string = string> {
  key: K;
  dir: SortDir;
}
export const sortValue = <K extends string>(s: Sort<K>) => `${s.key}_${s.dir}` as const;

/** `created_desc` → `{ key: 'created', dir: 'desc' }`; null for a key the list does not sort by, or no sort. */
export function parseSort<K extends string>(value: string | null, keys: readonly K[]): Sort<K> | null {
  const m = /^(.+)_(asc|desc)$/.exec(value ?? '');
  const key = keys.find((k) => k === m?.[1]);
  return key && m ? { key, dir: m[2] as SortDir } : null;
}

const positiveInt = (v: string | null) => Math.max(0, Number.parseInt(v ?? '', 10) || 0);

export type ParamChanges = Record<string, string | null>;

export interface ListParamsOptions<K extends string> {
  sortKeys?: readonly K[];
  defaultSort?: Sort<K>;
}

/** Page (1 unless a positive number), per_page (1 to 100, else the API's default), search and sort of a list's URL. */
export function readListParams<K extends string>(params: URLSearchParams, opts: ListParamsOptions<K> = {}) {
  const page = positiveInt(params.get('page')) || 1;
  const perPageRaw = positiveInt(params.get('per_page'));
  const perPage = perPageRaw >= 1 && perPageRaw <= 100 ? perPageRaw : undefined;
  const search = params.get('search') ?? '';
  const sort = parseSort(params.get('sort'), opts.sortKeys ?? []) ?? opts.defaultSort;
  return { page, perPage, search, sort };
}

/**
 * The query after `changes`: null or '' removes a parameter, and any change but paging starts
 * again from page 1 (the page is dropped).
 */
export function withChanges(prev: URLSearchParams, changes: ParamChanges): URLSearchParams {
  const next = new URLSearchParams(prev);
  for (const [k, v] of Object.entries(changes)) {
    if (v === null || v === '') next.delete(k);
    else next.set(k, v);
  }
  if (!('page' in changes)) next.delete('page');
  return next;
}

/** The change a table header's sort makes: the default order leaves the URL; a key the list does not sort by makes none (null). */
export function sortChange<K extends string>(s: Sort, opts: ListParamsOptions<K>): ParamChanges | null {
  const key = opts.sortKeys?.find((k) => k === s.key);
  if (!key) return null;
  const isDefault = key === opts.defaultSort?.key && s.dir === opts.defaultSort?.dir;
  return { sort: isDefault ? null : sortValue({ key, dir: s.dir }) };
}

/** `page` for a page number: the first page is the URL without one. */
export const pageChange = (p: number): ParamChanges => ({ page: p === 1 ? null : String(p) });
