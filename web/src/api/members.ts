import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Member } from '../../../shared/src/members.ts';
import { data, page, v4, type MutationOptions } from './client.ts';

export type MemberScope = 'groups' | 'projects';

export const membersKeys = {
  all: ['members'] as const,
  of: (scope: MemberScope, id: number) => [...membersKeys.all, scope, id] as const,
  list: (scope: MemberScope, id: number, search: string) => [...membersKeys.of(scope, id), 'list', search] as const,
};

/** A member as the screen shows it: inherited ones come from an ancestor group and are changed there. */
export interface ListedMember extends Member {
  inherited: boolean;
}

/** Members lists are short; read them whole (pages of 100, at most 2,000) so the role filter and paging can work on the full list. */
const MAX_PAGES = 20;

async function readAll(path: '/groups/{id}/members' | '/groups/{id}/members/all' | '/projects/{id}/members' | '/projects/{id}/members/all', id: number, query: string, signal: AbortSignal) {
  const items: Member[] = [];
  for (let p = 1; p <= MAX_PAGES; p++) {
    const res = await page(v4.GET(path, { params: { path: { id: String(id) }, query: { per_page: 100, page: p, query: query || undefined } }, signal }));
    items.push(...res.items);
    if (!res.page.nextPage) break;
  }
  return items;
}

/**
 * Everyone with access (GET …/members/all), each marked inherited unless they are also a direct
 * member (GET …/members): the screen edits direct members only, as the platform does.
 */
export function useMembers(scope: MemberScope, id: number, search: string) {
  return useQuery({
    queryKey: membersKeys.list(scope, id, search),
    queryFn: async ({ signal }): Promise<ListedMember[]> => {
      const [all, direct] = await Promise.all([
        readAll(scope === 'groups' ? '/groups/{id}/members/all' : '/projects/{id}/members/all', id, search, signal),
        readAll(scope === 'groups' ? '/groups/{id}/members' : '/projects/{id}/members', id, search, signal),
      ]);
      const directIds = new Set(direct.map((m) => m.id));
      return all.map((m) => ({ ...m, inherited: !directIds.has(m.id) }));
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

/** Users whose name, username or email matches, for the "add a member" picker (GET /users?search=). */
export function useUserSearch(search: string) {
  const term = search.trim();
  return useQuery({
    queryKey: ['users', 'search', term] as const,
    enabled: term.length >= 2,
    queryFn: ({ signal }) => data(v4.GET('/users', { params: { query: { search: term, active: true, per_page: 10 } }, signal })),
    placeholderData: keepPreviousData,
  });
}
