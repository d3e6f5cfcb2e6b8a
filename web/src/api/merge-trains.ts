import { useEffect } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MergeSettings, MergeTrain } from '../../../shared/src/merge-trains.ts';
import { consoleApi, data, page, v4, type MutationOptions, type Page } from './client.ts';

export type MergeTrainScope = 'active' | 'complete' | 'dropped';

export const mergeTrainsKeys = {
  all: ['merge-trains'] as const,
  project: (projectId: number) => [...mergeTrainsKeys.all, projectId] as const,
  list: (projectId: number, scope: MergeTrainScope, pageNo: number) => [...mergeTrainsKeys.project(projectId), 'list', scope, pageNo] as const,
  settings: (projectId: number) => [...mergeTrainsKeys.project(projectId), 'settings'] as const,
};

const path = (projectId: number) => ({ id: String(projectId) });

/** Cars of one scope; the queue follows its pipelines while cars are on the train. */
export function useMergeTrains(projectId: number, scope: MergeTrainScope, pageNo = 1, opts: { enabled?: boolean; follow?: boolean } = {}) {
  return useQuery({
    queryKey: mergeTrainsKeys.list(projectId, scope, pageNo),
    queryFn: ({ signal }): Promise<Page<MergeTrain>> =>
      page(v4.GET('/projects/{id}/merge_trains', { params: { path: path(projectId), query: { scope, sort: scope === 'active' ? 'asc' : 'desc', per_page: scope === 'active' ? 100 : 20, page: pageNo } }, signal })),
    enabled: opts.enabled ?? true,
    // Pipelines move as external CI reports: the screen follows without a reload.
    refetchInterval: opts.follow ? 2_000 : false,
  });
}

/** The merged and dropped lists follow the queue: whenever a car moves, leaves or joins, they are read again. */
export function useHistoryFollowsQueue(projectId: number, queue: MergeTrain[] | undefined) {
  const qc = useQueryClient();
  const signature = queue?.map((c) => `${c.id}:${c.status}:${c.pipeline?.status ?? ''}`).join(',');
  useEffect(() => {
    if (signature === undefined) return;
    void qc.invalidateQueries({ queryKey: [...mergeTrainsKeys.project(projectId), 'list'], predicate: (q) => q.queryKey[3] !== 'active' });
  }, [qc, projectId, signature]);
}

export function useMergeSettings(projectId: number) {
  return useQuery({
    queryKey: mergeTrainsKeys.settings(projectId),
    queryFn: ({ signal }): Promise<MergeSettings> => data(consoleApi.GET('/projects/{id}/merge_settings', { params: { path: path(projectId) }, signal })),
  });
}

export function useUpdateMergeSettings(projectId: number, options: MutationOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: (body: Partial<MergeSettings>) => data(consoleApi.PUT('/projects/{id}/merge_settings', { params: { path: path(projectId) }, body })),
    onSettled: () => qc.invalidateQueries({ queryKey: mergeTrainsKeys.project(projectId) }),
  });
}

export function useAddToTrain(projectId: number, options: MutationOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: (iid: number) => data(v4.POST('/projects/{id}/merge_trains/merge_requests/{merge_request_iid}', { params: { path: { ...path(projectId), merge_request_iid: String(iid) } }, body: {} })),
    onSettled: () => qc.invalidateQueries({ queryKey: mergeTrainsKeys.project(projectId) }),
  });
}

export function useRemoveFromTrain(projectId: number, options: MutationOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: (iid: number) => data(v4.DELETE('/projects/{id}/merge_trains/merge_requests/{merge_request_iid}', { params: { path: { ...path(projectId), merge_request_iid: String(iid) } } })),
    onSettled: () => qc.invalidateQueries({ queryKey: mergeTrainsKeys.project(projectId) }),
  });
}
