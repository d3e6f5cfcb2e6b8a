import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Member } from '../../../shared/src/members.ts';
import { data, page, v4, type MutationOptions, type Page } from './client.ts';

export type MemberScope = 'groups' | 'projects';

/** What the members list keeps in the URL and sends: the platform's `query` (name or username) and the page. */
export interface MembersQuery {
  search: string;
  page: number;
  perPage: number;
}

export const membersKeys = {
  all: ['members'] as const,
  of: (scope: MemberScope, id: number) => [...membersKeys.all, scope, id] as const,
  list: (scope: MemberScope, id: number, query: MembersQuery) => [...membersKeys.of(scope, id), 'list', query] as const,
};

/** A member as the screen shows it: inherited ones come from an ancestor group and are changed there. */
export interface ListedMember extends Member {
  inherited: boolean;
}

/**
 * A page of everyone with access (GET …/members/all, searched and paged on the server), each
 * marked inherited unless they are also a direct member: one more request asks which of the
 * page's users are (GET …/members?user_ids=). The screen edits direct members only, as the
 * platform does.
 */
export function useMembers(scope: MemberScope, id: number, query: MembersQuery) {
  return useQuery({
    queryKey: membersKeys.list(scope, id, query),
    queryFn: async ({ signal }): Promise<Page<ListedMember>> => {
      const path = { id: String(id) };
      const all = await page(
        v4.GET(scope === 'groups' ? '/groups/{id}/members/all' : '/projects/{id}/members/all', {
          params: { path, query: { query: query.search || undefined, page: query.page, per_page: query.perPage } },
          signal,
        }),
      );
      if (all.items.length === 0) return { ...all, items: [] };
      const direct = await data(
        v4.GET(scope === 'groups' ? '/groups/{id}/members' : '/projects/{id}/members', {
          params: { path, query: { user_ids: all.items.map((m) => m.id), per_page: all.items.length } },
          signal,
        }),
      );
      const directIds = new Set(direct.map((m) => m.id));
      return { ...all, items: all.items.map((m) => ({ ...m, inherited: !directIds.has(m.id) })) };
    },
    placeholderData: keepPreviousData,
  });
}

export interface MemberChange {
  userId: number;
  access_level: number;
  expires_at: string | null;
}

export function useAddMember(scope: MemberScope, id: number, options: MutationOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: ({ userId, access_level, expires_at }: MemberChange) => {
      const body = { user_id: userId, access_level, expires_at };
      const path = { id: String(id) };
      return scope === 'groups' ? data(v4.POST('/groups/{id}/members', { params: { path }, body })) : data(v4.POST('/projects/{id}/members', { params: { path }, body }));
    },
    onSettled: () => qc.invalidateQueries({ queryKey: membersKeys.of(scope, id) }),
  });
}

export function useUpdateMember(scope: MemberScope, id: number, options: MutationOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: ({ userId, access_level, expires_at }: MemberChange) => {
      const params = { path: { id: String(id), user_id: String(userId) } };
      const body = { access_level, expires_at };
      return scope === 'groups' ? data(v4.PUT('/groups/{id}/members/{user_id}', { params, body })) : data(v4.PUT('/projects/{id}/members/{user_id}', { params, body }));
    },
    onSettled: () => qc.invalidateQueries({ queryKey: membersKeys.of(scope, id) }),
  });
}

export function useRemoveMember(scope: MemberScope, id: number, options: MutationOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: (userId: number) => {
      const params = { path: { id: String(id), user_id: String(userId) } };
      return scope === 'groups' ? data(v4.DELETE('/groups/{id}/members/{user_id}', { params })) : data(v4.DELETE('/projects/{id}/members/{user_id}', { params }));
    },
    onSettled: () => qc.invalidateQueries({ queryKey: membersKeys.of(scope, id) }),
  });
}

/** Active people whose name, username or email matches, for the "add members" picker (GET /users?search=; bots left out). */
export function useUserSearch(search: string) {
  const term = search.trim();
  return useQuery({
    queryKey: ['users', 'search', term] as const,
    enabled: term.length >= 2,
    queryFn: ({ signal }) => data(v4.GET('/users', { params: { query: { search: term, active: true, exclude_bots: true, per_page: 10 } }, signal })),
    placeholderData: keepPreviousData,
  });
}
