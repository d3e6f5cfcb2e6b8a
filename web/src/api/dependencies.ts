import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Dependency } from '../../../shared/src/dependencies.ts';
import { page, v4, type Page } from './client.ts';

export interface DependenciesQuery {
  package_manager?: string;
  page?: number;
}

export const dependenciesKeys = {
  all: ['dependencies'] as const,
  list: (projectId: number, query: DependenciesQuery) => [...dependenciesKeys.all, projectId, query] as const,
};

export function useProjectDependencies(projectId: number, query: DependenciesQuery) {
  return useQuery({
    queryKey: dependenciesKeys.list(projectId, query),
    queryFn: ({ signal }): Promise<Page<Dependency>> =>
      page(v4.GET('/projects/{id}/dependencies', { params: { path: { id: String(projectId) }, query: { per_page: 20, page: query.page, package_manager: query.package_manager } as never }, signal })),
    placeholderData: keepPreviousData,
  });
}
