import { useSearchParams } from 'react-router';
import { groupAccessTokenSorts } from '../../../../shared/src/group-access-tokens.ts';
import type { AccessTokensQuery } from '../../api/group-access-tokens.ts';
import { daysFromToday } from './expiry.ts';

export type TokenState = 'active' | 'inactive';
export type TokenSort = (typeof groupAccessTokenSorts)[number];

export const SORT_OPTIONS: { value: TokenSort; label: string }[] = [
  { value: 'created_desc', label: 'Newest first' },
  { value: 'created_asc', label: 'Oldest first' },
  { value: 'expires_asc', label: 'Expiring soonest' },
  { value: 'expires_desc', label: 'Expiring latest' },
  { value: 'last_used_desc', label: 'Recently used' },
  { value: 'last_used_asc', label: 'Least recently used' },
  { value: 'name_asc', label: 'Name, A–Z' },
  { value: 'name_desc', label: 'Name, Z–A' },
];
export const DEFAULT_SORT: TokenSort = 'created_desc';

/** Filters the API can answer; each maps to its query parameters (dates on the server's UTC clock). */
export const EXPIRES_FILTERS = [
  { value: 'week', label: 'Expiring within 7 days', query: () => ({ expires_before: daysFromToday(7) }) },
  { value: 'month', label: 'Expiring within 30 days', query: () => ({ expires_before: daysFromToday(30) }) },
] as const;
export const USED_FILTERS = [
  { value: 'recent', label: 'Used in the last 30 days', query: () => ({ last_used_after: `${daysFromToday(-30)}T00:00:00.000Z` }) },
  { value: 'stale', label: 'Not used for 90 days', query: () => ({ last_used_before: `${daysFromToday(-90)}T00:00:00.000Z` }) },
] as const;
export const STATUS_FILTERS = [
  { value: 'revoked', label: 'Revoked', query: () => ({ revoked: true }) },
  { value: 'expired', label: 'Expired', query: () => ({ revoked: false }) },
] as const;

const pick = <T extends { value: string }>(list: readonly T[], value: string | null) => list.find((f) => f.value === value);

/** Tab, search, filters, sort and page of the token list live in the URL: it can be linked, reloaded and navigated back to. */
export function useTokenListParams() {
  const [params, setParams] = useSearchParams();
  const state: TokenState = params.get('state') === 'inactive' ? 'inactive' : 'active';
  const sort = groupAccessTokenSorts.find((s) => s === params.get('sort')) ?? DEFAULT_SORT;
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
  const search = params.get('search') ?? '';
  const expires = state === 'active' ? pick(EXPIRES_FILTERS, params.get('expires')) : undefined;
  const used = pick(USED_FILTERS, params.get('used'));
  const status = state === 'inactive' ? pick(STATUS_FILTERS, params.get('status')) : undefined;

  const update = (changes: Record<string, string | null>, opts: { replace?: boolean } = {}) => {
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        for (const [k, v] of Object.entries(changes)) {
          if (v === null || v === '') next.delete(k);
          else next.set(k, v);
        }
        // Any change but paging starts again from the first page.
        if (!('page' in changes)) next.delete('page');
        return next;
      },
      { replace: opts.replace },
    );
  };

  const query: AccessTokensQuery = {
    state,
    search: search.trim() || undefined,
    sort,
    page,
    ...expires?.query(),
    ...used?.query(),
    ...status?.query(),
  };
  const filtered = Boolean(query.search || expires || used || status);
  const clearFilters = () => update({ search: null, expires: null, used: null, status: null });
  return { query, state, search, sort, page, expires: expires?.value ?? null, used: used?.value ?? null, status: status?.value ?? null, filtered, update, clearFilters };
}
