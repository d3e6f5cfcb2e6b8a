import { HOOK_STATUS_CATEGORIES } from '../../../../shared/src/hook-events.ts';
import type { HookEventsQuery } from '../../api/hooks.ts';
import { useListParams } from '../../components/list-params.ts';
import { statusCategory } from './hook-format.ts';

export const STATUS_FILTERS: { value: (typeof HOOK_STATUS_CATEGORIES)[number]; label: string }[] = [
  { value: 'successful', label: 'Successful (2xx)' },
  { value: 'client_failure', label: 'Client failures (4xx)' },
  { value: 'server_failure', label: 'Server failures (5xx, no response)' },
];

export const isStatusCode = (v: string) => /^[1-5]\d\d$/.test(v);
/**
 * Whether the log's status filter (a category, a code, or '' for none) hides a delivery with this
 * response status. A resend is of the same event as the delivery it repeats, so only its status
 * can take it out of the log's view.
 */
export const hiddenByStatus = (filter: string, status: string) => filter !== '' && (isStatusCode(filter) ? filter !== status : statusCategory(status) !== filter);

const isStatusFilter = (v: string) => (HOOK_STATUS_CATEGORIES as readonly string[]).includes(v) || isStatusCode(v);

/** The log's filter and page as the URL has them (an unknown status is no filter). */
function readFilter(get: (name: string) => string, page: number) {
  const rawStatus = get('status');
  const status = isStatusFilter(rawStatus) ? rawStatus : '';
  const trigger = get('trigger').slice(0, 64);
  const query: HookEventsQuery = { status: status || undefined, trigger: trigger || undefined, page };
  return { status, trigger, query };
}

/**
 * Status (a category or a code), event kind and page of the delivery log live in the URL.
 * `onQuery` hears the query a change will ask for as the change is made, before the page draws
 * the new URL, so the log's request can start at once.
 */
export function useDeliveryParams(onQuery?: (query: HookEventsQuery) => void) {
  const list = useListParams();
  const { status, trigger, query } = readFilter(list.get, list.page);
  const update: typeof list.update = (changes, opts) => {
    // As useListParams does: a change other than paging starts again from page 1.
    const page = 'page' in changes ? Number(changes.page) || 1 : 1;
    onQuery?.(readFilter((name) => (name in changes ? (changes[name] ?? '') : list.get(name)), page).query);
    list.update(changes, opts);
  };
  const filtered = Boolean(status || trigger);
  const clearFilters = () => update({ status: null, trigger: null });
  const setPage = (p: number) => update({ page: p === 1 ? null : String(p) });
  return { ...list, update, setPage, query, status, trigger, filtered, clearFilters };
}
