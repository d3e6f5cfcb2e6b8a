import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { GroupDetail, GroupListItem, GroupUpdateInput } from '../../../shared/src/groups.ts';
import type { Abilities } from '../../../shared/src/session.ts';
import { api, pageInfo, request, type PageInfo } from './client.ts';
import type { SessionUser } from './session.ts';

/** What the groups list keeps in the URL and sends to GET /groups. */
export interface GroupsListQuery {
  search?: string;
  order_by?: 'name' | 'path' | 'id';
  sort?: 'asc' | 'desc';
  page?: number;
  per_page?: number;
  all_available?: boolean;
}

export const groupsKeys = {
  all: ['groups'] as const,
  lists: () => [...groupsKeys.all, 'list'] as const,
  list: (query: GroupsListQuery) => [...groupsKeys.lists(), query] as const,
  details: () => [...groupsKeys.all, 'detail'] as const,
  /** `id` is the numeric ID or the full path, as the URL names it. */
  detail: (id: string | number) => [...groupsKeys.details(), String(id).toLowerCase()] as const,
  subgroups: (id: number) => [...groupsKeys.all, 'subgroups', id] as const,
  role: (id: number, userId: number) => [...groupsKeys.all, 'role', id, userId] as const,
};

const groupUrl = (id: string | number) => `/api/v4/groups/${encodeURIComponent(String(id))}`;

export interface GroupsPage {
  items: GroupListItem[];
  page: PageInfo;
}

export function useGroups(query: GroupsListQuery) {
  return useQuery({
    queryKey: groupsKeys.list(query),
    queryFn: async ({ signal }): Promise<GroupsPage> => {
      const res = await request<GroupListItem[]>('/api/v4/groups', { query: { per_page: 20, ...query }, signal });
      return { items: res.data, page: pageInfo(res.headers) };
    },
    placeholderData: keepPreviousData,
  });
}

export function useGroup(id: string | number) {
  return useQuery({
    queryKey: groupsKeys.detail(id),
    queryFn: ({ signal }) => api.get<GroupDetail>(groupUrl(id), { signal }),
  });
}

/**
 * Direct subgroups of a group. The API has no GET /groups/:id/subgroups yet, so this reads
 * the visible groups (up to 100) and keeps the children.
 */
export function useSubgroups(group: Pick<GroupDetail, 'id'>) {
  return useQuery({
    queryKey: groupsKeys.subgroups(group.id),
    queryFn: async ({ signal }) => {
      const all = await api.get<GroupListItem[]>('/api/v4/groups', {
        query: { all_available: true, per_page: 100, order_by: 'name' },
        signal,
      });
      return all.filter((g) => g.parent_id === group.id);
    },
  });
}

/**
 * What the signed-in user may do on the group, as the server's permission rules decide
 * (and their effective role, for wording).
 */
export function useGroupRole(group: { id: number } | undefined, user: SessionUser) {
  return useQuery({
    queryKey: groupsKeys.role(group?.id ?? 0, user.id),
    enabled: group !== undefined,
    queryFn: ({ signal }) => api.get<Abilities>(`/api/console/groups/${group!.id}/abilities`, { signal }),
  });
}

export interface GroupUpdate {
  /** Only the fields that changed, in the shape of the PUT body. */
  fields: Partial<GroupUpdateInput>;
  /** A new avatar image to upload (sent as multipart after the other fields). */
  avatarFile?: File | null;
}

export function useUpdateGroup(id: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async ({ fields, avatarFile }: GroupUpdate) => {
      let group: GroupDetail | undefined;
      if (Object.keys(fields).length > 0) group = await api.put<GroupDetail>(groupUrl(id), fields);
      if (avatarFile) {
        const form = new FormData();
        form.append('avatar', avatarFile, avatarFile.name);
        group = await api.put<GroupDetail>(groupUrl(id), form);
      }
      return group ?? api.get<GroupDetail>(groupUrl(id));
    },
    onSuccess: (group) => {
      qc.setQueryData(groupsKeys.detail(group.full_path), group);
      qc.setQueryData(groupsKeys.detail(group.id), group);
    },
    // Names, paths and visibility show in lists, breadcrumbs and subgroup cards: refresh the area.
    // The detail was just written above; refetching it under an old path would answer 404.
    onSettled: (_data, error) => {
      void qc.invalidateQueries({ queryKey: groupsKeys.all, predicate: (q) => error !== null || q.queryKey[1] !== 'detail' });
    },
  });
}
