import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { page, v4 } from './client.ts';

export const tagsKeys = {
  all: ['tags'] as const,
  list: (projectId: number, query: { search: string; page: number }) => [...tagsKeys.all, projectId, query] as const,
};

/** A page of the project's tags, newest commit first, filtered by `search`. */
export function useTags(projectId: number, query: { search: string; page: number }) {
  return useQuery({
    queryKey: tagsKeys.list(projectId, query),
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) =>
      page(
        v4.GET('/projects/{id}/repository/tags', {
          params: { path: { id: String(projectId) }, query: { search: query.search || undefined, page: query.page, per_page: 20 } },
          signal,
        }),
      ),
  });
}
