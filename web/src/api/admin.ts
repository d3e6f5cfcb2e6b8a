import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { GroupListItem } from '../../../shared/src/groups.ts';
import type { ProjectSummary } from '../../../shared/src/projects.ts';
import type { AdminJobsQuery } from '../../../shared/src/admin-jobs.ts';
import { consoleApi, data, page, v4, type MutationOptions, type Page } from './client.ts';
import { groupsKeys } from './groups.ts';
import { instanceKeys } from './instance.ts';
import { projectsKeys } from './projects.ts';

/*
 * The admin area's lists of every group and project of the instance. They read the platform
 * API as any client does (an administrator sees every group and project); the keys live under
 * the groups' and projects' own, so a change anywhere else refreshes them too.
 */

export interface AdminGroupsQuery {
  search?: string;
  order_by?: 'name' | 'path' | 'id';
  sort?: 'asc' | 'desc';
  page?: number;
  per_page?: number;
}

export interface AdminProjectsQuery {
  search?: string;
  order_by?: 'name' | 'path' | 'id' | 'created_at' | 'last_activity_at';
  sort?: 'asc' | 'desc';
  page?: number;
  per_page?: number;
}

export const adminKeys = {
  jobs: ['admin', 'jobs'] as const,
  jobsSummary: () => [...adminKeys.jobs, 'summary'] as const,
  jobsList: (query: AdminJobsQuery) => [...adminKeys.jobs, 'list', query] as const,
  groups: (query: AdminGroupsQuery) => [...groupsKeys.all, 'admin', query] as const,
  projects: (query: AdminProjectsQuery) => [...projectsKeys.all, 'admin', query] as const,
};

/** GET /groups with all_available: every group of the instance, subgroups included, with their storage (statistics, for administrators). */
export function useAdminGroups(query: AdminGroupsQuery) {
  return useQuery({
    queryKey: adminKeys.groups(query),
    queryFn: ({ signal }): Promise<Page<GroupListItem>> =>
      page(v4.GET('/groups', { params: { query: { per_page: 20, all_available: true, statistics: true, ...query } }, signal })),
    placeholderData: keepPreviousData,
  });
}

/** GET /projects: every project of the instance, as an administrator sees them. */
export function useAdminProjects(query: AdminProjectsQuery) {
  return useQuery({
    queryKey: adminKeys.projects(query),
    queryFn: ({ signal }) => page(v4.GET('/projects', { params: { query: { per_page: 20, ...query } }, signal })) as Promise<Page<ProjectSummary>>,
    placeholderData: keepPreviousData,
  });
}

/** DELETE /groups/:id: the group goes at once, with its subgroups and projects (the server answers 202 when it is gone). */
export function useDeleteGroup(options: MutationOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: (id: number) => data(v4.DELETE('/groups/{id}', { params: { path: { id: String(id) } } })),
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: groupsKeys.all });
      void qc.invalidateQueries({ queryKey: projectsKeys.all });
      void qc.invalidateQueries({ queryKey: instanceKeys.all });
    },
  });
}

/** DELETE /projects/:id: the project and its repository go at once. */
export function useDeleteProject(options: MutationOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: (id: number) => data(v4.DELETE('/projects/{id}', { params: { path: { id: String(id) } } })),
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: projectsKeys.all });
      void qc.invalidateQueries({ queryKey: groupsKeys.all });
      void qc.invalidateQueries({ queryKey: instanceKeys.all });
    },
  });
}

/** How often the Background jobs screen reads the queue again while it is open. */
const JOBS_REFRESH_MS = 10_000;

/** GET /api/console/admin/jobs/summary: counts by state, and the kinds for the filter. */
export function useAdminJobsSummary() {
  return useQuery({
    queryKey: adminKeys.jobsSummary(),
    queryFn: ({ signal }) => data(consoleApi.GET('/admin/jobs/summary', { signal })),
    refetchInterval: JOBS_REFRESH_MS,
  });
}

/** GET /api/console/admin/jobs: newest first, by state and kind. */
export function useAdminJobs(query: AdminJobsQuery) {
  return useQuery({
    queryKey: adminKeys.jobsList(query),
    queryFn: ({ signal }) => page(consoleApi.GET('/admin/jobs', { params: { query }, signal })),
    placeholderData: keepPreviousData,
    refetchInterval: JOBS_REFRESH_MS,
  });
}

/** POST /api/console/admin/jobs/:job_id/retry: a failed job queued again (409 for one that has not failed). */
export function useRetryJob(options: MutationOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: (id: number) => data(consoleApi.POST('/admin/jobs/{job_id}/retry', { params: { path: { job_id: String(id) } } })),
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: adminKeys.jobs });
      void qc.invalidateQueries({ queryKey: instanceKeys.all });
    },
  });
}

/** PUT /projects/:id/transfer: the project moves to another group (id or full path), its repository with it. */
export function useTransferProject(options: MutationOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: ({ id, namespace }: { id: number; namespace: string }) => data(v4.PUT('/projects/{id}/transfer', { params: { path: { id: String(id) } }, body: { namespace } })),
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: projectsKeys.all });
      void qc.invalidateQueries({ queryKey: groupsKeys.all });
    },
  });
}

/** POST /groups/:id/transfer: the group moves under another parent (or to the top level, `parentId` null), its subgroups and projects with it. */
export function useTransferGroup(options: MutationOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: ({ id, parentId }: { id: number; parentId: number | null }) =>
      data(v4.POST('/groups/{id}/transfer', { params: { path: { id: String(id) } }, body: { group_id: parentId } })),
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: projectsKeys.all });
      void qc.invalidateQueries({ queryKey: groupsKeys.all });
    },
  });
}

/** Groups a transfer may target, by name or path (an administrator sees every group). */
export function useTransferTargets(search: string) {
  return useQuery({
    queryKey: [...groupsKeys.all, 'transfer-targets', search] as const,
    queryFn: ({ signal }): Promise<Page<GroupListItem>> =>
      page(v4.GET('/groups', { params: { query: { per_page: 20, all_available: true, search: search || undefined, order_by: 'path', sort: 'asc' } }, signal })),
    placeholderData: keepPreviousData,
  });
}
