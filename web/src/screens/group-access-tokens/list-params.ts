import { groupAccessTokenSorts } from '../../../../shared/src/group-access-tokens.ts';
import type { AccessTokensQuery } from '../../api/group-access-tokens.ts';
import { sortValue, useListParams, type Sort } from '../../components/list-params.ts';
import { daysFromToday } from '../../components/token-expiry.ts';

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
const SORT_KEYS = ['name', 'created', 'last_used', 'expires'] as const;
export const DEFAULT_SORT: Sort<(typeof SORT_KEYS)[number]> = { key: 'created', dir: 'desc' };

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
  const list = useListParams({ sortKeys: SORT_KEYS, defaultSort: DEFAULT_SORT });
  const state: TokenState = list.get('state') === 'inactive' ? 'inactive' : 'active';
  const sort = list.sort ?? DEFAULT_SORT;
  const expires = state === 'active' ? pick(EXPIRES_FILTERS, list.get('expires')) : undefined;
  const used = pick(USED_FILTERS, list.get('used'));
  const status = state === 'inactive' ? pick(STATUS_FILTERS, list.get('status')) : undefined;

  const query: AccessTokensQuery = {
    state,
    search: list.search.trim() || undefined,
    sort: sortValue(sort),
    page: list.page,
    per_page: list.perPage,
    ...expires?.query(),
    ...used?.query(),
    ...status?.query(),
  };
  const filtered = Boolean(query.search || expires || used || status);
  const clearFilters = () => list.update({ search: null, expires: null, used: null, status: null });
  return { ...list, query, state, sort, expires: expires?.value ?? null, used: used?.value ?? null, status: status?.value ?? null, filtered, clearFilters };
}
