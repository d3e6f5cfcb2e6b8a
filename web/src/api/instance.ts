import { useQuery } from '@tanstack/react-query';
import { consoleApi, data } from './client.ts';

export const instanceKeys = {
  all: ['instance'] as const,
  overview: () => [...instanceKeys.all, 'overview'] as const,
};

/** The administrator's instance overview (GET /api/console/instance): counts, version, database, job queue, sign-in limits. */
export function useInstanceOverview() {
  return useQuery({
    queryKey: instanceKeys.overview(),
    queryFn: ({ signal }) => data(consoleApi.GET('/instance', { signal })),
  });
}
