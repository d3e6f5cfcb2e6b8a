import { useState } from 'react';
import { useDebouncedCallback } from '@mantine/hooks';
import { useSearchParams } from 'react-router';
import { pageChange, readListParams, sortChange, withChanges, type ParamChanges, type Sort } from './list-params-model.ts';

export { sortValue, type ParamChanges, type Sort, type SortDir } from './list-params-model.ts';

/**
 * Page, per_page, sort, search and a screen's own filters live in the URL, so a list can be
 * linked, reloaded and navigated back to. Any change but paging starts again from page 1; a
 * value equal to its default is left out of the URL.
 */
export function useListParams<K extends string = never>(opts: { sortKeys?: readonly K[]; defaultSort?: Sort<K> } = {}) {
  const [params, setParams] = useSearchParams();
  const { page, perPage, search, sort } = readListParams(params, opts);

  // Changes apply to the URL as it is when they are made, not as this render saw it: a search
  // typed before a filter changed is written after a pause (useSearchBox), and must not bring
  // the old filter back. (React Router hands a function the search params of its own render.)
  const update = (changes: ParamChanges, { replace = false }: { replace?: boolean } = {}) => {
    setParams(withChanges(new URLSearchParams(window.location.search), changes), { replace });
  };

  return {
    /** A screen's own filter, as the URL has it ('' when absent). */
    get: (name: string) => params.get(name) ?? '',
    page,
    perPage,
    search,
    sort,
    update,
    setPage: (p: number) => update(pageChange(p)),
    /** Takes a table header's sort; a key the list does not sort by is ignored. */
    setSort: (s: Sort) => {
      const change = sortChange(s, opts);
      if (change) update(change);
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
