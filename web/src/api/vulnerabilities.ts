import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DismissalReason, Severity, Vulnerability, VulnerabilityDetail, VulnerabilityState } from '../../../shared/src/vulnerabilities.ts';
import { consoleApi, data, page, v4, type MutationOptions, type Page } from './client.ts';

export interface VulnerabilitiesQuery {
  severity?: Severity[];
  state?: VulnerabilityState[];
  report_type?: string[];
  page?: number;
}

export const vulnerabilitiesKeys = {
  all: ['vulnerabilities'] as const,
  project: (projectId: number) => [...vulnerabilitiesKeys.all, projectId] as const,
  list: (projectId: number, query: VulnerabilitiesQuery) => [...vulnerabilitiesKeys.project(projectId), 'list', query] as const,
  one: (projectId: number, id: number) => [...vulnerabilitiesKeys.project(projectId), id] as const,
  group: (groupId: number, query: VulnerabilitiesQuery) => [...vulnerabilitiesKeys.all, 'group', groupId, query] as const,
  dashboard: (query: VulnerabilitiesQuery) => [...vulnerabilitiesKeys.all, 'dashboard', query] as const,
};

/** Lists go to the API comma-separated, as its list parameters take them. */
const joined = (v?: string[]) => (v?.length ? v.join(',') : undefined);

export function useProjectVulnerabilities(projectId: number, query: VulnerabilitiesQuery) {
  return useQuery({
    queryKey: vulnerabilitiesKeys.list(projectId, query),
    queryFn: ({ signal }): Promise<Page<Vulnerability>> =>
      page(
        v4.GET('/projects/{id}/vulnerabilities', {
          params: { path: { id: String(projectId) }, query: { per_page: 20, page: query.page, ...filtersOf(query) } as never },
          signal,
        }),
      ),
    placeholderData: keepPreviousData,
  });
}

/** The report's filters as the API and the export's `filters` take them (empty ones left out). */
export const filtersOf = (query: VulnerabilitiesQuery) => ({ severity: joined(query.severity), state: joined(query.state), report_type: joined(query.report_type) });

/** The vulnerabilities of every project of a group and its subgroups (the console's group report). */
export function useGroupVulnerabilities(groupId: number, query: VulnerabilitiesQuery) {
  return useQuery({
    queryKey: vulnerabilitiesKeys.group(groupId, query),
    queryFn: ({ signal }): Promise<Page<Vulnerability>> =>
      page(consoleApi.GET('/groups/{id}/vulnerabilities', { params: { path: { id: String(groupId) }, query: { per_page: 20, page: query.page, ...filtersOf(query) } as never }, signal })),
    placeholderData: keepPreviousData,
  });
}

/** The vulnerabilities of the projects on the user's security dashboard (what its export covers). */
export function useDashboardVulnerabilities(query: VulnerabilitiesQuery) {
  return useQuery({
    queryKey: vulnerabilitiesKeys.dashboard(query),
    queryFn: ({ signal }): Promise<Page<Vulnerability>> => page(consoleApi.GET('/security/vulnerabilities', { params: { query: { per_page: 20, page: query.page, ...filtersOf(query) } as never }, signal })),
    placeholderData: keepPreviousData,
  });
}

export function useVulnerability(projectId: number, id: number) {
  return useQuery({
    queryKey: vulnerabilitiesKeys.one(projectId, id),
    queryFn: ({ signal }): Promise<VulnerabilityDetail> => data(v4.GET('/vulnerabilities/{id}', { params: { path: { id: String(id) } }, signal })),
  });
}

export type VulnerabilityMove = 'confirm' | 'dismiss' | 'resolve' | 'revert';
export interface MoveInput {
  id: number;
  action: VulnerabilityMove;
  comment?: string;
  dismissal_reason?: DismissalReason;
}

export function useMoveVulnerability(projectId: number, options: MutationOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: ({ id, action, ...body }: MoveInput) => {
      const params = { path: { id: String(id) } };
      const json = { comment: body.comment || undefined, ...(action === 'dismiss' ? { dismissal_reason: body.dismissal_reason } : {}) };
      const call =
        action === 'confirm'
          ? v4.POST('/vulnerabilities/{id}/confirm', { params, body: json })
          : action === 'dismiss'
            ? v4.POST('/vulnerabilities/{id}/dismiss', { params, body: json })
            : action === 'resolve'
              ? v4.POST('/vulnerabilities/{id}/resolve', { params, body: json })
              : v4.POST('/vulnerabilities/{id}/revert', { params, body: json });
      return data(call);
    },
    // The project's report and detail, and the group reports that list them too.
    onSettled: () => qc.invalidateQueries({ queryKey: vulnerabilitiesKeys.all }),
  });
}
