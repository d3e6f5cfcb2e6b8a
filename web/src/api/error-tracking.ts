import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ErrorStatus, ErrorTrackingClientKey, ErrorTrackingSetting, TrackedError, TrackedErrorDetails } from '../../../shared/src/error-tracking.ts';
import type { Issue } from '../../../shared/src/issues.ts';
import { ApiError, data, page, v4, type MutationOptions, type Page } from './client.ts';
import { issuesKeys } from './issues.ts';

export interface ErrorsQuery {
  status?: ErrorStatus;
  query?: string;
  sort?: 'last_seen' | 'first_seen' | 'frequency';
  page?: number;
}

export const errorTrackingKeys = {
  all: ['error-tracking'] as const,
  project: (projectId: number) => [...errorTrackingKeys.all, projectId] as const,
  setting: (projectId: number) => [...errorTrackingKeys.project(projectId), 'setting'] as const,
  keys: (projectId: number, pageNo: number) => [...errorTrackingKeys.project(projectId), 'keys', pageNo] as const,
  errors: (projectId: number) => [...errorTrackingKeys.project(projectId), 'errors'] as const,
  list: (projectId: number, query: ErrorsQuery) => [...errorTrackingKeys.errors(projectId), 'list', query] as const,
  one: (projectId: number, id: number) => [...errorTrackingKeys.errors(projectId), id] as const,
};

const path = (projectId: number) => ({ id: String(projectId) });
/** Errors arrive from applications, not from the console: a list or an error is asked for again each time it is shown. */
const ALWAYS_FRESH = 0;
/** The OpenAPI document has a frequency bucket as a number array (it has no tuples); the API answers `[start, count]` pairs (shared schema). */
const asErrors = (p: Promise<Page<unknown>>) => p as Promise<Page<TrackedError>>;
const asDetails = (p: Promise<unknown>) => p as Promise<TrackedErrorDetails>;

/** The project's setting, or null while none was ever saved (the API answers 404 then: tracking is off). Maintainers only. */
export function useErrorTrackingSetting(projectId: number, opts: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: errorTrackingKeys.setting(projectId),
    enabled: opts.enabled ?? true,
    queryFn: async ({ signal }): Promise<ErrorTrackingSetting | null> => {
      try {
        return await data(v4.GET('/projects/{id}/error_tracking/settings', { params: { path: path(projectId) }, signal }));
      } catch (e) {
        if (e instanceof ApiError && e.status === 404 && /setting/i.test(e.message)) return null;
        throw e;
      }
    },
  });
}

/** Integrated tracking on or off: the console sets both flags together (it has no external Sentry to point at). */
export function useSaveErrorTrackingSetting(projectId: number, options: MutationOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: (on: boolean) => data(v4.PUT('/projects/{id}/error_tracking/settings', { params: { path: path(projectId) }, body: { active: on, integrated: on } })),
    onSuccess: (setting) => qc.setQueryData(errorTrackingKeys.setting(projectId), setting),
    onSettled: () => qc.invalidateQueries({ queryKey: errorTrackingKeys.setting(projectId) }),
  });
}

export function useClientKeys(projectId: number, pageNo: number) {
  return useQuery({
    queryKey: errorTrackingKeys.keys(projectId, pageNo),
    queryFn: ({ signal }): Promise<Page<ErrorTrackingClientKey>> =>
      page(v4.GET('/projects/{id}/error_tracking/client_keys', { params: { path: path(projectId), query: { per_page: 20, page: pageNo } }, signal })),
    placeholderData: keepPreviousData,
  });
}

export function useCreateClientKey(projectId: number, options: MutationOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: () => data(v4.POST('/projects/{id}/error_tracking/client_keys', { params: { path: path(projectId) } })),
    onSettled: () => qc.invalidateQueries({ queryKey: [...errorTrackingKeys.project(projectId), 'keys'] }),
  });
}

export function useRevokeClientKey(projectId: number, options: MutationOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: (keyId: number) => data(v4.DELETE('/projects/{id}/error_tracking/client_keys/{key_id}', { params: { path: { ...path(projectId), key_id: String(keyId) } } })),
    onSettled: () => qc.invalidateQueries({ queryKey: [...errorTrackingKeys.project(projectId), 'keys'] }),
  });
}

export function useTrackedErrors(projectId: number, query: ErrorsQuery) {
  return useQuery({
    queryKey: errorTrackingKeys.list(projectId, query),
    queryFn: ({ signal }): Promise<Page<TrackedError>> =>
      asErrors(page(v4.GET('/projects/{id}/error_tracking/errors', { params: { path: path(projectId), query: { per_page: 20, ...query } }, signal }))),
    placeholderData: keepPreviousData,
    staleTime: ALWAYS_FRESH,
  });
}

export function useTrackedError(projectId: number, id: number) {
  return useQuery({
    queryKey: errorTrackingKeys.one(projectId, id),
    queryFn: ({ signal }): Promise<TrackedErrorDetails> =>
      asDetails(data(v4.GET('/projects/{id}/error_tracking/errors/{error_id}', { params: { path: { ...path(projectId), error_id: String(id) } }, signal }))),
    staleTime: ALWAYS_FRESH,
  });
}

/** Resolve, ignore or reopen (unresolved): the answer is the error's whole page, put in the cache; the lists are refreshed. */
export function useSetErrorStatus(projectId: number, id: number, options: MutationOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: (status: ErrorStatus) => asDetails(data(v4.PUT('/projects/{id}/error_tracking/errors/{error_id}', { params: { path: { ...path(projectId), error_id: String(id) } }, body: { status } }))),
    onSuccess: (error) => qc.setQueryData(errorTrackingKeys.one(projectId, id), error),
    onSettled: () => qc.invalidateQueries({ queryKey: [...errorTrackingKeys.errors(projectId), 'list'] }),
  });
}

/** "Create issue": the issue holds the stack trace and links back; the error then names it. */
export function useCreateIssueFromError(projectId: number, id: number, options: MutationOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: (): Promise<Issue> => data(v4.POST('/projects/{id}/error_tracking/errors/{error_id}/issue', { params: { path: { ...path(projectId), error_id: String(id) } } })),
    onSettled: () => Promise.all([qc.invalidateQueries({ queryKey: errorTrackingKeys.one(projectId, id) }), qc.invalidateQueries({ queryKey: issuesKeys.all })]),
  });
}
