import { HOOK_STATUS_CATEGORIES } from '../../../../shared/src/hooks.ts';
import type { HookEventsQuery } from '../../api/hooks.ts';
import { useListParams } from '../../components/list-params.ts';

export const STATUS_FILTERS: { value: (typeof HOOK_STATUS_CATEGORIES)[number]; label: string }[] = [
  { value: 'successful', label: 'Successful (2xx)' },
  { value: 'client_failure', label: 'Client failures (4xx)' },
  { value: 'server_failure', label: 'Server failures (5xx, no response)' },
];

export const isStatusCode = (v: string) => /^[1-5]\d\d$/.test(v);
const isStatusFilter = (v: string) => (HOOK_STATUS_CATEGORIES as readonly string[]).includes(v) || isStatusCode(v);

/** Status (a category or a code), event kind and page of the delivery log live in the URL. */
export function useDeliveryParams() {
  const list = useListParams();
  const rawStatus = list.get('status');
  const status = isStatusFilter(rawStatus) ? rawStatus : '';
  const trigger = list.get('trigger').slice(0, 64);
  const query: HookEventsQuery = { status: status || undefined, trigger: trigger || undefined, page: list.page };
  const filtered = Boolean(status || trigger);
  const clearFilters = () => list.update({ status: null, trigger: null });
  return { ...list, query, status, trigger, filtered, clearFilters };
}
