import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { MergeRequest, MergeRequestBasic, MergeRequestListQuery, mergeRequestUpdateBody } from '../../../shared/src/merge-requests.ts';
import type { MergeRequestMergeBody } from '../../../shared/src/merge-request-merge.ts';
import type { MergeRequestApprovals } from '../../../shared/src/merge-request-approvals.ts';
import type { Commit } from '../../../shared/src/branches.ts';
import type { Diff } from '../../../shared/src/compare.ts';
import type { PipelineBasic } from '../../../shared/src/pipelines.ts';
import { data, page, v4, type MutationOptions, type Page } from './client.ts';
import { mergeTrainsKeys } from './merge-trains.ts';
import { notesKeys } from './notes.ts';

/** The list's filters as sent: labels comma-separated, as the platform takes them. */
export type MergeRequestsQuery = Pick<MergeRequestListQuery, 'state' | 'search' | 'author_username' | 'target_branch' | 'order_by' | 'sort' | 'page'> & { labels?: string };

/** Whose merge requests a list shows: a project's, or those of every project of a group. */
export interface MergeRequestOwner {
  scope: 'groups' | 'projects';
  id: number;
}

export const mergeRequestsKeys = {
  all: ['merge-requests'] as const,
  list: (o: MergeRequestOwner, query: MergeRequestsQuery) => [...mergeRequestsKeys.all, o.scope, o.id, 'list', query] as const,
  project: (projectId: number) => [...mergeRequestsKeys.all, 'projects', projectId] as const,
  one: (projectId: number, iid: number) => [...mergeRequestsKeys.project(projectId), 'iid', iid] as const,
  approvals: (projectId: number, iid: number) => [...mergeRequestsKeys.one(projectId, iid), 'approvals'] as const,
  part: (projectId: number, iid: number, what: 'commits' | 'changes', pageNo = 1) => [...mergeRequestsKeys.one(projectId, iid), what, pageNo] as const,
  headPipeline: (projectId: number, ref: string, sha: string) => [...mergeRequestsKeys.project(projectId), 'head-pipeline', ref, sha] as const,
};

const mrPath = (projectId: number, iid: number) => ({ id: String(projectId), merge_request_iid: String(iid) });

export function useMergeRequests(owner: MergeRequestOwner, query: MergeRequestsQuery) {
  return useQuery({
    queryKey: mergeRequestsKeys.list(owner, query),
    queryFn: ({ signal }): Promise<Page<MergeRequestBasic>> => {
      // Sent as one comma-separated value, as the platform reads labels.
      const sent = { per_page: 20, ...query, labels: query.labels?.split(',').map((l) => l.trim()).filter(Boolean) };
      return owner.scope === 'groups'
        ? page(v4.GET('/groups/{id}/merge_requests', { params: { path: { id: String(owner.id) }, query: sent }, signal }))
        : page(v4.GET('/projects/{id}/merge_requests', { params: { path: { id: String(owner.id) }, query: sent }, signal }));
    },
    placeholderData: keepPreviousData,
  });
}

const RUNNING = new Set(['created', 'waiting_for_resource', 'preparing', 'pending', 'running', 'scheduled']);

/** One merge request; it is read again while its pipeline runs or an automatic merge waits, so the page follows the CI. */
export function useMergeRequest(projectId: number, iid: number) {
  return useQuery({
    queryKey: mergeRequestsKeys.one(projectId, iid),
    queryFn: ({ signal }): Promise<MergeRequest> => data(v4.GET('/projects/{id}/merge_requests/{merge_request_iid}', { params: { path: mrPath(projectId, iid) }, signal })),
    refetchInterval: (q) => {
      const mr = q.state.data;
      return mr && mr.state === 'opened' && (RUNNING.has(mr.head_pipeline?.status ?? '') || mr.merge_when_pipeline_succeeds) ? 5_000 : false;
    },
  });
}

export function useMergeRequestCommits(projectId: number, iid: number, pageNo: number) {
  return useQuery({
    queryKey: mergeRequestsKeys.part(projectId, iid, 'commits', pageNo),
    queryFn: ({ signal }): Promise<Page<Commit>> =>
      page(v4.GET('/projects/{id}/merge_requests/{merge_request_iid}/commits', { params: { path: mrPath(projectId, iid), query: { per_page: 20, page: pageNo } }, signal })),
    placeholderData: keepPreviousData,
  });
}

/** The merge request's changes, every file at once (past the server's diff limits it says overflow). */
export function useMergeRequestChanges(projectId: number, iid: number) {
  return useQuery({
    queryKey: mergeRequestsKeys.part(projectId, iid, 'changes'),
    queryFn: ({ signal }): Promise<MergeRequest & { changes: Diff[]; overflow: boolean }> =>
      data(v4.GET('/projects/{id}/merge_requests/{merge_request_iid}/changes', { params: { path: mrPath(projectId, iid) }, signal })),
  });
}

/** The newest pipeline of a branch at a commit: the pipeline a list row of a merge request shows. */
export function useHeadPipeline(projectId: number, ref: string, sha: string | null) {
  return useQuery({
    queryKey: mergeRequestsKeys.headPipeline(projectId, ref, sha ?? ''),
    queryFn: async ({ signal }): Promise<PipelineBasic | null> => {
      const found = await data(v4.GET('/projects/{id}/pipelines', { params: { path: { id: String(projectId) }, query: { ref, sha: sha!, per_page: 1 } }, signal }));
      return found[0] ?? null;
    },
    enabled: sha !== null,
  });
}

/** Writes on a merge request read it, its lists and the merge trains again. */
function useInvalidateMergeRequest(projectId: number) {
  const qc = useQueryClient();
  return () => Promise.all([qc.invalidateQueries({ queryKey: mergeRequestsKeys.all }), qc.invalidateQueries({ queryKey: mergeTrainsKeys.project(projectId) })]);
}

/** PUT …/merge: a merge now, or an automatic merge once the pipeline passes (`auto_merge`). */
export function useMergeMergeRequest(projectId: number, iid: number, options: MutationOptions = {}) {
  const invalidate = useInvalidateMergeRequest(projectId);
  return useMutation({
    ...options,
    mutationFn: (body: MergeRequestMergeBody) => data(v4.PUT('/projects/{id}/merge_requests/{merge_request_iid}/merge', { params: { path: mrPath(projectId, iid) }, body })),
    onSettled: invalidate,
  });
}

/** Takes back an automatic merge, or takes the merge request off its merge train. */
export function useCancelAutoMerge(projectId: number, iid: number, options: MutationOptions = {}) {
  const invalidate = useInvalidateMergeRequest(projectId);
  return useMutation({
    ...options,
    mutationFn: async () => {
      const result = await data(v4.POST('/projects/{id}/merge_requests/{merge_request_iid}/cancel_merge_when_pipeline_succeeds', { params: { path: mrPath(projectId, iid) } }));
      // The platform answers 201 with its refusal in the body when nothing was set.
      if (result.status !== 'success') throw new Error(result.message ?? 'The automatic merge could not be cancelled.');
      return result;
    },
    onSettled: invalidate,
  });
}

export function useAddMergeRequestToTrain(projectId: number, iid: number, options: MutationOptions = {}) {
  const invalidate = useInvalidateMergeRequest(projectId);
  return useMutation({
    ...options,
    mutationFn: () => data(v4.POST('/projects/{id}/merge_trains/merge_requests/{merge_request_iid}', { params: { path: mrPath(projectId, iid) }, body: {} })),
    onSettled: invalidate,
  });
}

/** Close or reopen. */
export function useMoveMergeRequest(projectId: number, iid: number, options: MutationOptions = {}) {
  const invalidate = useInvalidateMergeRequest(projectId);
  return useMutation({
    ...options,
    mutationFn: (state_event: 'close' | 'reopen') => data(v4.PUT('/projects/{id}/merge_requests/{merge_request_iid}', { params: { path: mrPath(projectId, iid) }, body: { state_event } })),
    onSettled: invalidate,
  });
}

export type MergeRequestChange = z.input<typeof mergeRequestUpdateBody>;

/** Edits a merge request's fields; the page shows the answer at once, and its thread (the platform notes label and assignee changes) is read again. */
export function useUpdateMergeRequest(projectId: number, iid: number, options: MutationOptions = {}) {
  const qc = useQueryClient();
  const invalidate = useInvalidateMergeRequest(projectId);
  return useMutation({
    ...options,
    mutationFn: (body: MergeRequestChange): Promise<MergeRequest> => data(v4.PUT('/projects/{id}/merge_requests/{merge_request_iid}', { params: { path: mrPath(projectId, iid) }, body: body as never })),
    onSuccess: (mr) => qc.setQueryData(mergeRequestsKeys.one(projectId, iid), mr),
    onSettled: () => Promise.all([invalidate(), qc.invalidateQueries({ queryKey: notesKeys.of({ projectId, noteable: 'merge_requests', iid }) })]),
  });
}

/** Who approved the merge request, and whether the reader approved it or may. */
export function useMergeRequestApprovals(projectId: number, iid: number) {
  return useQuery({
    queryKey: mergeRequestsKeys.approvals(projectId, iid),
    queryFn: ({ signal }): Promise<MergeRequestApprovals> => data(v4.GET('/projects/{id}/merge_requests/{merge_request_iid}/approvals', { params: { path: mrPath(projectId, iid) }, signal })),
  });
}

/**
 * Approves the merge request at the commit the reader saw (`sha`: a 409 when the branch moved
 * since), or takes the approval back. The platform's 401 here is a refusal (approved already,
 * or the author), not a lost session.
 */
export function useApproval(projectId: number, iid: number, options: MutationOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: (move: { approve: true; sha: string | null } | { approve: false }): Promise<MergeRequestApprovals> =>
      move.approve
        ? data(v4.POST('/projects/{id}/merge_requests/{merge_request_iid}/approve', { params: { path: mrPath(projectId, iid) }, body: move.sha ? { sha: move.sha } : {} }), { allowUnauthorized: true })
        : data(v4.POST('/projects/{id}/merge_requests/{merge_request_iid}/unapprove', { params: { path: mrPath(projectId, iid) } }), { allowUnauthorized: true }),
    onSuccess: (approvals) => qc.setQueryData(mergeRequestsKeys.approvals(projectId, iid), approvals),
    onSettled: () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: mergeRequestsKeys.one(projectId, iid) }),
        // The platform notes each approval in the thread.
        qc.invalidateQueries({ queryKey: notesKeys.of({ projectId, noteable: 'merge_requests', iid }) }),
      ]),
  });
}
