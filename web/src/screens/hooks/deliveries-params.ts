import { useSearchParams } from 'react-router';
import { HOOK_STATUS_CATEGORIES } from '../../../../shared/src/hooks.ts';
import type { HookEventsQuery } from '../../api/hooks.ts';

export const STATUS_FILTERS: { value: (typeof HOOK_STATUS_CATEGORIES)[number]; label: string }[] = [
  { value: 'successful', label: 'Successful (2xx)' },
  { value: 'client_failure', label: 'Client failures (4xx)' },
  { value: 'server_failure', label: 'Server failures (5xx, no response)' },
];

export const isStatusCode = (v: string) => /^[1-5]\d\d$/.test(v);
const isStatusFilter = (v: string) => (HOOK_STATUS_CATEGORIES as readonly string[]).includes(v) || isStatusCode(v);

/** Status (a category or a code), event kind and page of the delivery log live in the URL. */
export function useDeliveryParams() {
  const [params, setParams] = useSearchParams();
  const rawStatus = params.get('status') ?? '';
  const status = isStatusFilter(rawStatus) ? rawStatus : '';
  const trigger = (params.get('trigger') ?? '').slice(0, 64);
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);

  const update = (changes: Record<string, string | null>, opts: { replace?: boolean } = {}) => {
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        for (const [k, v] of Object.entries(changes)) {
          if (v === null || v === '') next.delete(k);
          else next.set(k, v);
        }
        // A new filter starts again from the first page.
        if (!('page' in changes)) next.delete('page');
        return next;
      },
      { replace: opts.replace },
    );
  };

  const query: HookEventsQuery = { status: status || undefined, trigger: trigger || undefined, page };
  const filtered = Boolean(status || trigger);
  const clearFilters = () => update({ status: null, trigger: null });
  return { query, status, trigger, page, filtered, update, clearFilters };
}
