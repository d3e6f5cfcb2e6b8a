import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SecurityDashboardProject } from '../../../shared/src/security-reports.ts';
import { data, v4, type MutationOptions } from './client.ts';

export const securityDashboardKeys = { all: ['security-dashboard'] as const };

export function useDashboardProjects() {
  return useQuery({
    queryKey: securityDashboardKeys.all,
    queryFn: ({ signal }): Promise<SecurityDashboardProject[]> => data(v4.GET('/security/dashboard/projects', { params: { query: { per_page: 100 } }, signal })),
  });
}

/** Puts the project on the signed-in user's security dashboard, or takes it off. */
export function useToggleDashboardProject(options: MutationOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: ({ projectId, on }: { projectId: number; on: boolean }) =>
      on
        ? data(v4.POST('/security/dashboard/projects', { body: { project_id: projectId } }))
        : data(v4.DELETE('/security/dashboard/projects/{project_id}', { params: { path: { project_id: String(projectId) } } })),
    onSettled: () => qc.invalidateQueries({ queryKey: securityDashboardKeys.all }),
  });
}
