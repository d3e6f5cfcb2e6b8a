import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { Issue, issueCreateBody, issueUpdateBody, ORDER_BY } from '../../../shared/src/issues.ts';
import type { IssueLinkType } from '../../../shared/src/issue-links.ts';
import type { Milestone } from '../../../shared/src/group-milestones.ts';
import type { Member } from '../../../shared/src/members.ts';
import { data, page, v4, type MutationOptions, type Page } from './client.ts';
import { notesKeys } from './notes.ts';

/** The filters of an issue list the console sends (the platform's names); absent ones are left out. */
export interface IssuesQuery {
  state?: 'opened' | 'closed' | 'all';
  search?: string;
  labels?: string[];
  milestone?: string;
  assignee_username?: string[];
  author_username?: string;
  order_by?: (typeof ORDER_BY)[number];
  sort?: 'asc' | 'desc';
  page?: number;
  per_page?: number;
}

/** Whose issues a list shows: a project's (/projects/:id/issues) or those of a group's projects (/groups/:id/issues). */
export interface IssuesOwner {
  scope: 'groups' | 'projects';
  id: number;
}

export const issuesKeys = {
  all: ['issues'] as const,
  list: (o: IssuesOwner, query: IssuesQuery) => [...issuesKeys.all, o.scope, o.id, 'list', query] as const,
  /** One issue and what hangs on it (links, state events); the project's lists are refreshed with it. */
  issue: (projectId: number, iid: number) => [...issuesKeys.all, 'projects', projectId, 'issue', iid] as const,
  part: (projectId: number, iid: number, what: 'links' | 'state_events') => [...issuesKeys.issue(projectId, iid), what] as const,
  /** What the edit dialog offers: the project's milestones and the people who may be assigned. */
  choices: (o: IssuesOwner, what: 'milestones' | 'assignees') => [...issuesKeys.all, 'choices', o.scope, o.id, what] as const,
};

const projectPath = (projectId: number) => ({ id: String(projectId) });
const issuePath = (projectId: number, iid: number) => ({ ...projectPath(projectId), issue_iid: String(iid) });

export function useIssues(owner: IssuesOwner, query: IssuesQuery) {
  return useQuery({
    queryKey: issuesKeys.list(owner, query),
    queryFn: ({ signal }): Promise<Page<Issue>> => {
      const params = { path: { id: String(owner.id) }, query: { per_page: 20, ...query } };
      return page(owner.scope === 'groups' ? v4.GET('/groups/{id}/issues', { params, signal }) : v4.GET('/projects/{id}/issues', { params, signal }));
    },
    placeholderData: keepPreviousData,
  });
}

export function useIssue(projectId: number, iid: number) {
  return useQuery({
    queryKey: issuesKeys.issue(projectId, iid),
    queryFn: ({ signal }): Promise<Issue> => data(v4.GET('/projects/{id}/issues/{issue_iid}', { params: { path: issuePath(projectId, iid) }, signal })),
  });
}

export type IssueChange = z.input<typeof issueUpdateBody>;
export type NewIssue = z.input<typeof issueCreateBody>;

/** Opens an issue in a project; the project's issue lists are read again. */
export function useCreateIssue(projectId: number, options: MutationOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: (body: NewIssue): Promise<Issue> => data(v4.POST('/projects/{id}/issues', { params: { path: projectPath(projectId) }, body: body as never })),
    onSuccess: (issue) => qc.setQueryData(issuesKeys.issue(projectId, issue.iid), issue),
    onSettled: () => qc.invalidateQueries({ queryKey: issuesKeys.all }),
  });
}

/** Edits an issue (fields, or `state_event` close|reopen); the issue, its state history, its thread and every issue list are read again. */
export function useUpdateIssue(projectId: number, iid: number, options: MutationOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: (body: IssueChange) => data(v4.PUT('/projects/{id}/issues/{issue_iid}', { params: { path: issuePath(projectId, iid) }, body: body as never })),
    onSuccess: (issue) => qc.setQueryData(issuesKeys.issue(projectId, iid), issue),
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: issuesKeys.all });
      // The platform notes each change in the thread ("closed", "added ~bug label").
      void qc.invalidateQueries({ queryKey: notesKeys.of({ projectId, noteable: 'issues', iid }) });
    },
  });
}

/** The issues linked to an issue, as seen from it (link type and link id on each). */
export function useIssueLinks(projectId: number, iid: number) {
  return useQuery({
    queryKey: issuesKeys.part(projectId, iid, 'links'),
    queryFn: ({ signal }) => data(v4.GET('/projects/{id}/issues/{issue_iid}/links', { params: { path: issuePath(projectId, iid) }, signal })),
  });
}

export interface NewIssueLink {
  /** The other issue's project: its ID or full path. */
  target_project_id: string;
  target_issue_iid: number;
  link_type: IssueLinkType;
}

export function useAddIssueLink(projectId: number, iid: number, options: MutationOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: (body: NewIssueLink) => data(v4.POST('/projects/{id}/issues/{issue_iid}/links', { params: { path: issuePath(projectId, iid) }, body })),
    onSettled: () => qc.invalidateQueries({ queryKey: issuesKeys.part(projectId, iid, 'links') }),
  });
}

export function useRemoveIssueLink(projectId: number, iid: number, options: MutationOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: (linkId: number) => data(v4.DELETE('/projects/{id}/issues/{issue_iid}/links/{issue_link_id}', { params: { path: { ...issuePath(projectId, iid), issue_link_id: String(linkId) } } })),
    onSettled: () => qc.invalidateQueries({ queryKey: issuesKeys.part(projectId, iid, 'links') }),
  });
}

/** Every close and reopen of the issue, oldest first (the first 100: an issue is rarely moved more often). */
export function useIssueStateEvents(projectId: number, iid: number) {
  return useQuery({
    queryKey: issuesKeys.part(projectId, iid, 'state_events'),
    queryFn: ({ signal }) => page(v4.GET('/projects/{id}/issues/{issue_iid}/resource_state_events', { params: { path: issuePath(projectId, iid), query: { per_page: 100 } }, signal })),
  });
}

/**
 * The open milestones of a project and its groups (what an issue of it may take), or of a group
 * with its ancestors and descendants (what the group's issue list filters by).
 */
export function useMilestoneChoices(owner: IssuesOwner, enabled = true) {
  return useQuery({
    queryKey: issuesKeys.choices(owner, 'milestones'),
    queryFn: ({ signal }): Promise<Milestone[]> => {
      const path = { id: String(owner.id) };
      return owner.scope === 'groups'
        ? (data(v4.GET('/groups/{id}/milestones', { params: { path, query: { include_ancestors: true, include_descendants: true, state: 'active', per_page: 100 } }, signal })) as Promise<Milestone[]>)
        : (data(v4.GET('/projects/{id}/milestones', { params: { path, query: { include_ancestors: true, state: 'active', per_page: 100 } }, signal })) as Promise<Milestone[]>);
    },
    enabled,
    staleTime: 60_000,
  });
}

/** The people who may be assigned: everyone with access to the project (the first 100, as the platform's picker). */
export function useAssigneeChoices(projectId: number, enabled: boolean) {
  return useQuery({
    queryKey: issuesKeys.choices({ scope: 'projects', id: projectId }, 'assignees'),
    queryFn: ({ signal }): Promise<Member[]> => data(v4.GET('/projects/{id}/members/all', { params: { path: projectPath(projectId), query: { per_page: 100 } }, signal })),
    enabled,
  });
}
