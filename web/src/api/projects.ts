import { useQuery } from '@tanstack/react-query';
import type { Member } from '../../../shared/src/members.ts';
import type { ProjectSummary } from '../../../shared/src/projects.ts';
import { ACCESS_LEVELS } from '../../../shared/src/roles.ts';
import { ApiError, api } from './client.ts';
import type { SessionUser } from './session.ts';

export const projectsKeys = {
  all: ['projects'] as const,
  details: () => [...projectsKeys.all, 'detail'] as const,
  /** `id` is the numeric ID or the path with namespace, as the URL names it. */
  detail: (id: string | number) => [...projectsKeys.details(), String(id).toLowerCase()] as const,
  role: (id: number, userId: number) => [...projectsKeys.all, 'role', id, userId] as const,
};

const projectUrl = (id: string | number) => `/api/v4/projects/${encodeURIComponent(String(id))}`;

export function useProject(id: string | number) {
  return useQuery({
    queryKey: projectsKeys.detail(id),
    queryFn: ({ signal }) => api.get<ProjectSummary>(projectUrl(id), { signal }),
  });
}

/** The signed-in user's effective role in the project (inherited from its groups too): administrators count as Owners, others as 0. */
export function useProjectRole(project: Pick<ProjectSummary, 'id'> | undefined, user: SessionUser) {
  return useQuery({
    queryKey: projectsKeys.role(project?.id ?? 0, user.id),
    enabled: project !== undefined,
    queryFn: async ({ signal }) => {
      if (user.is_admin) return ACCESS_LEVELS.owner as number;
      try {
        const m = await api.get<Pick<Member, 'access_level'>>(`${projectUrl(project!.id)}/members/all/${user.id}`, { signal });
        return m.access_level;
      } catch (e) {
        if (e instanceof ApiError && e.status === 404) return 0;
        throw e;
      }
    },
  });
}
