import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { IterationCadence, iterationCadenceCreateBody, iterationCadenceUpdateBody, iterationCreateBody, ProjectIteration } from '../../../shared/src/iterations.ts';
import type { Issue } from '../../../shared/src/issues.ts';
import { data, page, v4, type MutationOptions, type Page } from './client.ts';

export const iterationCadencesKeys = {
  all: ['iteration-cadences'] as const,
  group: (groupId: number) => [...iterationCadencesKeys.all, groupId] as const,
  list: (groupId: number, query: { page?: number }) => [...iterationCadencesKeys.group(groupId), 'list', query] as const,
  iterations: (groupId: number, cadenceId: number, query: { page?: number }) => [...iterationCadencesKeys.group(groupId), cadenceId, query] as const,
  issues: (groupId: number, iterationId: number) => [...iterationCadencesKeys.group(groupId), 'issues', iterationId] as const,
};

const path = (groupId: number) => ({ id: String(groupId) });

export function useIterationCadences(groupId: number, query: { page?: number }) {
  return useQuery({
    queryKey: iterationCadencesKeys.list(groupId, query),
    queryFn: ({ signal }): Promise<Page<IterationCadence>> => page(v4.GET('/groups/{id}/iteration_cadences', { params: { path: path(groupId), query: { per_page: 20, ...query } }, signal })),
    placeholderData: keepPreviousData,
  });
}

export function useCadenceIterations(groupId: number, cadenceId: number, query: { page?: number }) {
  return useQuery({
    queryKey: iterationCadencesKeys.iterations(groupId, cadenceId, query),
    queryFn: ({ signal }): Promise<Page<ProjectIteration>> =>
      page(v4.GET('/groups/{id}/iteration_cadences/{cadence_id}/iterations', { params: { path: { ...path(groupId), cadence_id: String(cadenceId) }, query: { per_page: 20, ...query } }, signal })),
    placeholderData: keepPreviousData,
  });
}

export function useCreateIterationCadence(groupId: number, options: MutationOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: (body: z.output<typeof iterationCadenceCreateBody>) => data(v4.POST('/groups/{id}/iteration_cadences', { params: { path: path(groupId) }, body })),
    onSettled: () => qc.invalidateQueries({ queryKey: iterationCadencesKeys.group(groupId) }),
  });
}

export function useCreateIteration(groupId: number, cadenceId: number, options: MutationOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: (body: z.output<typeof iterationCreateBody>) =>
      data(v4.POST('/groups/{id}/iteration_cadences/{cadence_id}/iterations', { params: { path: { ...path(groupId), cadence_id: String(cadenceId) } }, body })),
    onSettled: () => qc.invalidateQueries({ queryKey: iterationCadencesKeys.group(groupId) }),
  });
}

export function useDeleteIterationCadence(groupId: number, options: MutationOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: (cadenceId: number) => data(v4.DELETE('/groups/{id}/iteration_cadences/{cadence_id}', { params: { path: { ...path(groupId), cadence_id: String(cadenceId) } } })),
    onSettled: () => qc.invalidateQueries({ queryKey: iterationCadencesKeys.group(groupId) }),
  });
}

export function useUpdateIterationCadence(groupId: number, options: MutationOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: ({ cadenceId, body }: { cadenceId: number; body: z.output<typeof iterationCadenceUpdateBody> }) =>
      data(v4.PUT('/groups/{id}/iteration_cadences/{cadence_id}', { params: { path: { ...path(groupId), cadence_id: String(cadenceId) } }, body })),
    onSettled: () => qc.invalidateQueries({ queryKey: iterationCadencesKeys.group(groupId) }),
  });
}

/** The open issues of an iteration, in the group's projects and its subgroups' (the first 20). */
export function useIterationIssues(groupId: number, iterationId: number | undefined) {
  return useQuery({
    queryKey: iterationCadencesKeys.issues(groupId, iterationId ?? 0),
    enabled: iterationId !== undefined,
    queryFn: ({ signal }): Promise<Page<Issue>> =>
      page(v4.GET('/groups/{id}/issues', { params: { path: path(groupId), query: { iteration_id: iterationId!, state: 'opened', per_page: 20, order_by: 'created_at', sort: 'asc' } }, signal })),
  });
}
