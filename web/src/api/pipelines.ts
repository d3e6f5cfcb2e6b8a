import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Job, Pipeline, PipelineBasic, PipelineListQuery } from '../../../shared/src/pipelines.ts';
import { data, page, v4, type MutationOptions, type Page } from './client.ts';

export type PipelinesQuery = Pick<PipelineListQuery, 'status' | 'ref' | 'source' | 'username' | 'sha' | 'page'>;

export const pipelinesKeys = {
  all: ['pipelines'] as const,
  project: (projectId: number) => [...pipelinesKeys.all, projectId] as const,
  list: (projectId: number, query: PipelinesQuery) => [...pipelinesKeys.project(projectId), 'list', query] as const,
  one: (projectId: number, pipelineId: number) => [...pipelinesKeys.project(projectId), pipelineId] as const,
  jobs: (projectId: number, pipelineId: number) => [...pipelinesKeys.one(projectId, pipelineId), 'jobs'] as const,
};

const path = (projectId: number) => ({ id: String(projectId) });

export function useProjectPipelines(projectId: number, query: PipelinesQuery) {
  return useQuery({
    queryKey: pipelinesKeys.list(projectId, query),
    queryFn: ({ signal }): Promise<Page<PipelineBasic>> => page(v4.GET('/projects/{id}/pipelines', { params: { path: path(projectId), query: { per_page: 20, ...query } }, signal })),
    placeholderData: keepPreviousData,
    // A running pipeline moves as its CI reports: the list follows without a reload.
    refetchInterval: (q) => (q.state.data?.items.some((p) => !FINISHED.has(p.status)) ? 10_000 : false),
  });
}

const FINISHED = new Set(['success', 'failed', 'canceled', 'skipped']);

export function usePipeline(projectId: number, pipelineId: number) {
  return useQuery({
    queryKey: pipelinesKeys.one(projectId, pipelineId),
    queryFn: ({ signal }): Promise<Pipeline> => data(v4.GET('/projects/{id}/pipelines/{pipeline_id}', { params: { path: { ...path(projectId), pipeline_id: String(pipelineId) } }, signal })),
    refetchInterval: (q) => (q.state.data && !FINISHED.has(q.state.data.status) ? 10_000 : false),
  });
}

/** The latest jobs of a pipeline (up to 100: a pipeline of an external CI has a handful). */
export function usePipelineJobs(projectId: number, pipelineId: number, opts: { refetch?: boolean } = {}) {
  return useQuery({
    queryKey: pipelinesKeys.jobs(projectId, pipelineId),
    queryFn: ({ signal }): Promise<Job[]> =>
      data(v4.GET('/projects/{id}/pipelines/{pipeline_id}/jobs', { params: { path: { ...path(projectId), pipeline_id: String(pipelineId) }, query: { per_page: 100 } }, signal })),
    refetchInterval: opts.refetch ? 10_000 : false,
  });
}

function usePipelineAction(projectId: number, action: 'cancel' | 'retry', options: MutationOptions) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: (pipelineId: number) =>
      data(
        action === 'cancel'
          ? v4.POST('/projects/{id}/pipelines/{pipeline_id}/cancel', { params: { path: { ...path(projectId), pipeline_id: String(pipelineId) } } })
          : v4.POST('/projects/{id}/pipelines/{pipeline_id}/retry', { params: { path: { ...path(projectId), pipeline_id: String(pipelineId) } } }),
      ),
    onSettled: () => qc.invalidateQueries({ queryKey: pipelinesKeys.project(projectId) }),
  });
}

export const useCancelPipeline = (projectId: number, options: MutationOptions = {}) => usePipelineAction(projectId, 'cancel', options);
export const useRetryPipeline = (projectId: number, options: MutationOptions = {}) => usePipelineAction(projectId, 'retry', options);

export function useDeletePipeline(projectId: number, options: MutationOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: (pipelineId: number) => data(v4.DELETE('/projects/{id}/pipelines/{pipeline_id}', { params: { path: { ...path(projectId), pipeline_id: String(pipelineId) } } })),
    onSettled: () => qc.invalidateQueries({ queryKey: pipelinesKeys.project(projectId) }),
  });
}
