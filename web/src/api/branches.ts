import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { page, v4 } from './client.ts';

export const branchesKeys = {
  all: ['branches'] as const,
  list: (projectId: number, query: { search: string; page: number }) => [...branchesKeys.all, projectId, query] as const,
};

/** A page of the project's branches (name order), filtered by `search`. */
export function useBranches(projectId: number, query: { search: string; page: number }) {
  return useQuery({
    queryKey: branchesKeys.list(projectId, query),
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) =>
      page(
        v4.GET('/projects/{id}/repository/branches', {
          params: { path: { id: String(projectId) }, query: { search: query.search || undefined, page: query.page, per_page: 20 } },
          signal,
        }),
      ),
  });
}
