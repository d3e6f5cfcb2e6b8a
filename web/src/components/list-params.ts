import { useState } from 'react';
import { useDebouncedCallback } from '@mantine/hooks';
import { useSearchParams } from 'react-router';

export type SortDir = 'asc' | 'desc';
/** A list's order; in the URL as `sort=<key>_<dir>` (`created_desc`), the API's own shape where it has one. */
export interface Sort<K extends string = string> {
  key: K;
  dir: SortDir;
}
export const sortValue = <K extends string>(s: Sort<K>) => `${s.key}_${s.dir}` as const;

function parseSort<K extends string>(value: string | null, keys: readonly K[]): Sort<K> | null {
  const m = /^(.+)_(asc|desc)$/.exec(value ?? '');
  const key = keys.find((k) => k === m?.[1]);
  return key && m ? { key, dir: m[2] as SortDir } : null;
}

const positiveInt = (v: string | null) => Math.max(0, Number.parseInt(v ?? '', 10) || 0);

export type ParamChanges = Record<string, string | null>;

/**
 * Page, per_page, sort, search and a screen's own filters live in the URL, so a list can be
 * linked, reloaded and navigated back to. Any change but paging starts again from page 1; a
 * value equal to its default is left out of the URL.
 */
export function useListParams<K extends string = never>(opts: { sortKeys?: readonly K[]; defaultSort?: Sort<K> } = {}) {
  const [params, setParams] = useSearchParams();
  const page = positiveInt(params.get('page')) || 1;
  const perPageRaw = positiveInt(params.get('per_page'));
  const perPage = perPageRaw >= 1 && perPageRaw <= 100 ? perPageRaw : undefined;
  const search = params.get('search') ?? '';
  const sort = parseSort(params.get('sort'), opts.sortKeys ?? []) ?? opts.defaultSort;

  const update = (changes: ParamChanges, { replace = false }: { replace?: boolean } = {}) => {
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        for (const [k, v] of Object.entries(changes)) {
          if (v === null || v === '') next.delete(k);
          else next.set(k, v);
        }
        if (!('page' in changes)) next.delete('page');
        return next;
      },
      { replace },
    );
  };
  const isDefault = (s: Sort<K>) => s.key === opts.defaultSort?.key && s.dir === opts.defaultSort?.dir;

  return {
    /** A screen's own filter, as the URL has it ('' when absent). */
    get: (name: string) => params.get(name) ?? '',
    page,
    perPage,
    search,
    sort,
    update,
    setPage: (p: number) => update({ page: p === 1 ? null : String(p) }),
    /** Takes a table header's sort; a key the list does not sort by is ignored. */
    setSort: (s: Sort) => {
      const key = opts.sortKeys?.find((k) => k === s.key);
      if (key) update({ sort: isDefault({ key, dir: s.dir }) ? null : sortValue({ key, dir: s.dir }) });
    },
  };
}

/**
 * A search box bound to the URL's `search`: the box follows the URL (back/forward), and the URL
 * follows the box after a pause in typing.
 */
export function useSearchBox(search: string, update: (changes: ParamChanges, opts?: { replace?: boolean }) => void) {
  const [typed, setTyped] = useState(search);
  const [shown, setShown] = useState(search);
  if (shown !== search) {
    setShown(search);
    setTyped(search);
  }
  const push = useDebouncedCallback((value: string) => update({ search: value || null }, { replace: true }), 300);
  return {
    value: typed,
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => {
      setTyped(e.currentTarget.value);
      push(e.currentTarget.value);
    },
  };
}
