import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ConsoleExport } from '../../../shared/src/exports.ts';
import type { VulnerabilityExportFormat } from '../../../shared/src/vulnerability-exports.ts';
import type { DependencyExportType } from '../../../shared/src/dependency-list-exports.ts';
import { consoleApi, data, page, v4, type MutationOptions, type Page } from './client.ts';

/** Whose exports a screen shows: a project's, a group's, or those of the user's security dashboard. */
export type ExportScope = { kind: 'project'; id: number } | { kind: 'group'; id: number } | { kind: 'dashboard' };

export const exportsKeys = {
  all: ['exports'] as const,
  scope: (scope: ExportScope) => [...exportsKeys.all, scope.kind, 'id' in scope ? scope.id : 0] as const,
  list: (scope: ExportScope, query: { page?: number }) => [...exportsKeys.scope(scope), query] as const,
  settings: (scope: ExportScope) => [...exportsKeys.scope(scope), 'settings'] as const,
};

const scopeQuery = (scope: ExportScope) => (scope.kind === 'project' ? { project_id: scope.id } : scope.kind === 'group' ? { group_id: scope.id } : { dashboard: true });
export const isUnfinished = (e: Pick<ConsoleExport, 'status'>) => e.status === 'created' || e.status === 'running';

/** The caller's exports of the scope; polled every second while one of them is not done. */
export function useExports(scope: ExportScope, query: { page?: number }) {
  return useQuery({
    queryKey: exportsKeys.list(scope, query),
    queryFn: ({ signal }): Promise<Page<ConsoleExport>> => page(consoleApi.GET('/exports', { params: { query: { ...scopeQuery(scope), per_page: 20, ...query } }, signal })),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.data?.items.some(isUnfinished) ? 1000 : false),
  });
}

/** What the scope's Exports screen may offer: PDF where the vulnerabilities_pdf_export flag is on for it, email where a relay is set. */
export function useExportSettings(scope: ExportScope) {
  const query = scope.kind === 'project' ? { project_id: scope.id } : scope.kind === 'group' ? { group_id: scope.id } : {};
  return useQuery({
    queryKey: exportsKeys.settings(scope),
    queryFn: ({ signal }) => data(consoleApi.GET('/exports/settings', { params: { query }, signal })),
    staleTime: 60_000,
  });
}

/** The vulnerability report's filters, as lists: the export holds only what the report listed. */
export interface VulnerabilityExportFilters {
  severity?: string[];
  state?: string[];
  report_type?: string[];
}

export type NewExport =
  | { kind: 'vulnerability'; format: VulnerabilityExportFormat; sendEmail: boolean; filters?: VulnerabilityExportFilters }
  | { kind: 'dependency_list'; format: DependencyExportType; sendEmail: boolean };

/** Starts an export; the answer (either area's shape) is not used: the list shows the new export. */
async function startExport(scope: ExportScope, e: NewExport): Promise<{ id: number }> {
  if (e.kind === 'vulnerability') {
    const body = { export_format: e.format, send_email: e.sendEmail, filters: e.filters };
    if (scope.kind === 'project') return data(v4.POST('/security/projects/{id}/vulnerability_exports', { params: { path: { id: String(scope.id) } }, body }));
    if (scope.kind === 'group') return data(v4.POST('/security/groups/{id}/vulnerability_exports', { params: { path: { id: String(scope.id) } }, body }));
    return data(v4.POST('/security/vulnerability_exports', { body }));
  }
  const body = { export_type: e.format, send_email: e.sendEmail };
  if (scope.kind === 'project') return data(v4.POST('/projects/{id}/dependency_list_exports', { params: { path: { id: String(scope.id) } }, body }));
  if (scope.kind === 'group') return data(v4.POST('/groups/{id}/dependency_list_exports', { params: { path: { id: String(scope.id) } }, body }));
  throw new Error('the security dashboard has no dependency list export');
}

/**
 * One vulnerability export, as its API answers (202 until it is done): polled every second while
 * it is created or running, so a screen shows its progress in place.
 */
export function useVulnerabilityExport(id: number | null) {
  return useQuery({
    queryKey: [...exportsKeys.all, 'vulnerability', id] as const,
    queryFn: ({ signal }) => data(v4.GET('/security/vulnerability_exports/{id}', { params: { path: { id: String(id) } }, signal })),
    enabled: id !== null,
    refetchInterval: (q) => (q.state.data && !isUnfinished(q.state.data) ? false : 1000),
  });
}

export function useStartExport(scope: ExportScope, options: MutationOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: (e: NewExport) => startExport(scope, e),
    onSettled: () => qc.invalidateQueries({ queryKey: exportsKeys.scope(scope) }),
  });
}
