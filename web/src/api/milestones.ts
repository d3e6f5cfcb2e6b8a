import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { GroupMilestone, groupMilestoneCreateBody, groupMilestoneUpdateBody } from '../../../shared/src/group-milestones.ts';
import type { BurndownEvent } from '../../../shared/src/burndown.ts';
import { data, page, v4, type MutationOptions, type Page } from './client.ts';

export interface MilestonesQuery {
  state?: 'active' | 'closed';
  search?: string;
  start_date?: string;
  end_date?: string;
  page?: number;
}

export const groupMilestonesKeys = {
  all: ['group-milestones'] as const,
  group: (groupId: number) => [...groupMilestonesKeys.all, groupId] as const,
  list: (groupId: number, query: MilestonesQuery) => [...groupMilestonesKeys.group(groupId), 'list', query] as const,
  byIid: (groupId: number, iid: number) => [...groupMilestonesKeys.group(groupId), 'iid', iid] as const,
  /** What a milestone holds: its issues, merge requests and burndown events. */
  contents: (groupId: number, milestoneId: number, what: string) => [...groupMilestonesKeys.group(groupId), milestoneId, what] as const,
};

const gid = (groupId: number) => ({ id: String(groupId) });

export function useGroupMilestones(groupId: number, query: MilestonesQuery) {
  return useQuery({
    queryKey: groupMilestonesKeys.list(groupId, query),
    queryFn: ({ signal }): Promise<Page<GroupMilestone>> => page(v4.GET('/groups/{id}/milestones', { params: { path: gid(groupId), query: { per_page: 20, ...query } }, signal })),
    placeholderData: keepPreviousData,
  });
}

/** The console addresses a milestone by its iid, as the platform's pages do. */
export function useGroupMilestoneByIid(groupId: number, iid: number) {
  return useQuery({
    queryKey: groupMilestonesKeys.byIid(groupId, iid),
    queryFn: async ({ signal }): Promise<GroupMilestone | null> => {
      const found = await data(v4.GET('/groups/{id}/milestones', { params: { path: gid(groupId), query: { 'iids[]': [iid] } as never }, signal }));
      return found[0] ?? null;
    },
  });
}

/** Every item of a milestone list, page after page (the milestone page shows them all in columns). */
async function allPages<T>(fetchPage: (pageNo: number) => Promise<Page<T>>): Promise<T[]> {
  const items: T[] = [];
  for (let pageNo = 1; pageNo <= 50; pageNo++) {
    const p = await fetchPage(pageNo);
    items.push(...p.items);
    if (!p.page.nextPage) break;
  }
  return items;
}

export function useMilestoneIssues(groupId: number, milestoneId: number) {
  return useQuery({
    queryKey: groupMilestonesKeys.contents(groupId, milestoneId, 'issues'),
    queryFn: ({ signal }) =>
      allPages((p) => page(v4.GET('/groups/{id}/milestones/{milestone_id}/issues', { params: { path: { ...gid(groupId), milestone_id: String(milestoneId) }, query: { per_page: 100, page: p } }, signal }))),
  });
}

export function useMilestoneMergeRequests(groupId: number, milestoneId: number) {
  return useQuery({
    queryKey: groupMilestonesKeys.contents(groupId, milestoneId, 'merge_requests'),
    queryFn: ({ signal }) =>
      allPages((p) => page(v4.GET('/groups/{id}/milestones/{milestone_id}/merge_requests', { params: { path: { ...gid(groupId), milestone_id: String(milestoneId) }, query: { per_page: 100, page: p } }, signal }))),
  });
}

export function useBurndownEvents(groupId: number, milestoneId: number) {
  return useQuery({
    queryKey: groupMilestonesKeys.contents(groupId, milestoneId, 'burndown'),
    queryFn: ({ signal }): Promise<BurndownEvent[]> =>
      data(v4.GET('/groups/{id}/milestones/{milestone_id}/burndown_events', { params: { path: { ...gid(groupId), milestone_id: String(milestoneId) } }, signal })),
  });
}

export function useSaveGroupMilestone(groupId: number, options: MutationOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: ({ id, body }: { id: number | null; body: z.output<typeof groupMilestoneUpdateBody> }) =>
      id === null
        ? data(v4.POST('/groups/{id}/milestones', { params: { path: gid(groupId) }, body: body as z.output<typeof groupMilestoneCreateBody> }))
        : data(v4.PUT('/groups/{id}/milestones/{milestone_id}', { params: { path: { ...gid(groupId), milestone_id: String(id) } }, body })),
    onSettled: () => qc.invalidateQueries({ queryKey: groupMilestonesKeys.group(groupId) }),
  });
}

export function useDeleteGroupMilestone(groupId: number, options: MutationOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: (id: number) => data(v4.DELETE('/groups/{id}/milestones/{milestone_id}', { params: { path: { ...gid(groupId), milestone_id: String(id) } } })),
    onSettled: () => qc.invalidateQueries({ queryKey: groupMilestonesKeys.group(groupId) }),
  });
}
