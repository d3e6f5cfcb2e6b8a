import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { Milestone, groupMilestoneCreateBody, groupMilestoneUpdateBody } from '../../../shared/src/group-milestones.ts';
import type { BurndownEvent } from '../../../shared/src/burndown.ts';
import { data, page, v4, type MutationOptions, type Page } from './client.ts';

export interface MilestonesQuery {
  state?: 'active' | 'closed';
  search?: string;
  start_date?: string;
  end_date?: string;
  page?: number;
}

/**
 * Whose milestones: a group's (/groups/:id/milestones) or a project's (/projects/:id/milestones).
 * The two APIs take the same parameters and answer the same fields (project_id for group_id),
 * so each call below is written once, on the group's path, and sent to the owner's.
 */
export interface MilestoneOwner {
  scope: 'groups' | 'projects';
  id: number;
}

type GroupPath = '/groups/{id}/milestones' | `/groups/{id}/milestones/{milestone_id}${'' | '/issues' | '/merge_requests' | '/burndown_events'}`;
/** The owner's path for one of the group's: the types of the group's, for calls that are the same on both. */
const at = <P extends GroupPath>(owner: MilestoneOwner, groupPath: P) => (owner.scope === 'groups' ? groupPath : (groupPath.replace('/groups/', '/projects/') as P));

export const milestonesKeys = {
  all: ['milestones'] as const,
  owner: (o: MilestoneOwner) => [...milestonesKeys.all, o.scope, o.id] as const,
  list: (o: MilestoneOwner, query: MilestonesQuery) => [...milestonesKeys.owner(o), 'list', query] as const,
  byIid: (o: MilestoneOwner, iid: number) => [...milestonesKeys.owner(o), 'iid', iid] as const,
  /** What a milestone holds: its issues, merge requests and burndown events. */
  contents: (o: MilestoneOwner, milestoneId: number, what: string) => [...milestonesKeys.owner(o), milestoneId, what] as const,
};

const ownerPath = (o: MilestoneOwner) => ({ id: String(o.id) });
const milestonePath = (o: MilestoneOwner, milestoneId: number) => ({ ...ownerPath(o), milestone_id: String(milestoneId) });

export function useMilestones(owner: MilestoneOwner, query: MilestonesQuery) {
  return useQuery({
    queryKey: milestonesKeys.list(owner, query),
    queryFn: ({ signal }): Promise<Page<Milestone>> => page(v4.GET(at(owner, '/groups/{id}/milestones'), { params: { path: ownerPath(owner), query: { per_page: 20, ...query } }, signal })),
    placeholderData: keepPreviousData,
  });
}

/** The console addresses a milestone by its iid, as the platform's pages do. */
export function useMilestoneByIid(owner: MilestoneOwner, iid: number) {
  return useQuery({
    queryKey: milestonesKeys.byIid(owner, iid),
    queryFn: async ({ signal }): Promise<Milestone | null> => {
      const found = await data(v4.GET(at(owner, '/groups/{id}/milestones'), { params: { path: ownerPath(owner), query: { 'iids[]': [iid] } as never }, signal }));
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

export function useMilestoneIssues(owner: MilestoneOwner, milestoneId: number) {
  return useQuery({
    queryKey: milestonesKeys.contents(owner, milestoneId, 'issues'),
    queryFn: ({ signal }) =>
      allPages((p) => page(v4.GET(at(owner, '/groups/{id}/milestones/{milestone_id}/issues'), { params: { path: milestonePath(owner, milestoneId), query: { per_page: 100, page: p } }, signal }))),
  });
}

export function useMilestoneMergeRequests(owner: MilestoneOwner, milestoneId: number) {
  return useQuery({
    queryKey: milestonesKeys.contents(owner, milestoneId, 'merge_requests'),
    queryFn: ({ signal }) =>
      allPages((p) => page(v4.GET(at(owner, '/groups/{id}/milestones/{milestone_id}/merge_requests'), { params: { path: milestonePath(owner, milestoneId), query: { per_page: 100, page: p } }, signal }))),
  });
}

export function useBurndownEvents(owner: MilestoneOwner, milestoneId: number) {
  return useQuery({
    queryKey: milestonesKeys.contents(owner, milestoneId, 'burndown'),
    queryFn: ({ signal }): Promise<BurndownEvent[]> => data(v4.GET(at(owner, '/groups/{id}/milestones/{milestone_id}/burndown_events'), { params: { path: milestonePath(owner, milestoneId) }, signal })),
  });
}

export function useSaveMilestone(owner: MilestoneOwner, options: MutationOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: ({ id, body }: { id: number | null; body: z.output<typeof groupMilestoneUpdateBody> }) =>
      id === null
        ? data(v4.POST(at(owner, '/groups/{id}/milestones'), { params: { path: ownerPath(owner) }, body: body as z.output<typeof groupMilestoneCreateBody> }))
        : data(v4.PUT(at(owner, '/groups/{id}/milestones/{milestone_id}'), { params: { path: milestonePath(owner, id) }, body })),
    onSettled: () => qc.invalidateQueries({ queryKey: milestonesKeys.owner(owner) }),
  });
}

export function useDeleteMilestone(owner: MilestoneOwner, options: MutationOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: (id: number) => data(v4.DELETE(at(owner, '/groups/{id}/milestones/{milestone_id}'), { params: { path: milestonePath(owner, id) } })),
    onSettled: () => qc.invalidateQueries({ queryKey: milestonesKeys.owner(owner) }),
  });
}
