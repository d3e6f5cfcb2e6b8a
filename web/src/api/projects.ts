import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ProjectCreateBody } from '../../../shared/src/projects.ts';
import { consoleApi, data, v4, type MutationOptions } from './client.ts';
import type { SessionUser } from './session.ts';

export const projectsKeys = {
  all: ['projects'] as const,
  details: () => [...projectsKeys.all, 'detail'] as const,
  /** `id` is the numeric ID or the path with namespace, as the URL names it. */
  detail: (id: string | number) => [...projectsKeys.details(), String(id).toLowerCase()] as const,
  role: (id: number, userId: number) => [...projectsKeys.all, 'role', id, userId] as const,
};

export function useProject(id: string | number) {
  return useQuery({
    queryKey: projectsKeys.detail(id),
    queryFn: ({ signal }) => data(v4.GET('/projects/{id}', { params: { path: { id: String(id) } }, signal })),
  });
}

/**
 * What the signed-in user may do on the project, as the server's permission rules decide
 * (and their effective role, for wording).
 */
export function useProjectRole(project: { id: number } | undefined, user: SessionUser) {
  return useQuery({
    queryKey: projectsKeys.role(project?.id ?? 0, user.id),
    enabled: project !== undefined,
    queryFn: ({ signal }) => data(consoleApi.GET('/projects/{id}/abilities', { params: { path: { id: String(project!.id) } }, signal })),
  });
}

/** POST /projects in a group (namespace_id); the group's project list shows it after. */
export function useCreateProject(options: MutationOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: (body: ProjectCreateBody) => data(v4.POST('/projects', { body })),
    onSettled: () => qc.invalidateQueries({ queryKey: ['groups'] }),
  });
}
