import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PipelineTrigger } from '../../../shared/src/pipeline-triggers.ts';
import { data, page, v4, type MutationOptions, type Page } from './client.ts';

export const pipelineTriggersKeys = {
  all: ['pipeline-triggers'] as const,
  project: (projectId: number) => [...pipelineTriggersKeys.all, projectId] as const,
  list: (projectId: number, query: { page?: number }) => [...pipelineTriggersKeys.project(projectId), query] as const,
};

const path = (projectId: number) => ({ id: String(projectId) });
/** Only a shortened token is cached: the owner's whole token is fetched again when it is copied. */
const cached = (t: PipelineTrigger): PipelineTrigger => ({ ...t, token: t.token.slice(0, 4) });

export function usePipelineTriggers(projectId: number, query: { page?: number }) {
  return useQuery({
    queryKey: pipelineTriggersKeys.list(projectId, query),
    queryFn: async ({ signal }): Promise<Page<PipelineTrigger>> => {
      const res = await page(v4.GET('/projects/{id}/triggers', { params: { path: path(projectId), query: { per_page: 20, ...query } }, signal }));
      return { ...res, items: res.items.map(cached) };
    },
    placeholderData: keepPreviousData,
  });
}

/** The whole token of one trigger, for its owner: read when asked for, never kept. */
export const fetchTriggerToken = async (projectId: number, triggerId: number) =>
  (await data(v4.GET('/projects/{id}/triggers/{trigger_id}', { params: { path: { ...path(projectId), trigger_id: String(triggerId) } } }))).token;

/** The answer carries the whole token: `gcTime: 0`, and the caller resets the mutation after the reveal. */
export function useCreatePipelineTrigger(projectId: number, options: MutationOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    gcTime: 0,
    mutationFn: (description: string) => data(v4.POST('/projects/{id}/triggers', { params: { path: path(projectId) }, body: { description } })),
    onSettled: () => qc.invalidateQueries({ queryKey: pipelineTriggersKeys.project(projectId) }),
  });
}

export function useUpdatePipelineTrigger(projectId: number, options: MutationOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: ({ id, description }: { id: number; description: string }) =>
      data(v4.PUT('/projects/{id}/triggers/{trigger_id}', { params: { path: { ...path(projectId), trigger_id: String(id) } }, body: { description } })).then(cached),
    onSettled: () => qc.invalidateQueries({ queryKey: pipelineTriggersKeys.project(projectId) }),
  });
}

export function useRevokePipelineTrigger(projectId: number, options: MutationOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: (id: number) => data(v4.DELETE('/projects/{id}/triggers/{trigger_id}', { params: { path: { ...path(projectId), trigger_id: String(id) } } })),
    onSettled: () => qc.invalidateQueries({ queryKey: pipelineTriggersKeys.project(projectId) }),
  });
}
