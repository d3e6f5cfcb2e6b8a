import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { GroupCreateBody, GroupDetail, GroupListItem, GroupUpdateBody } from '../../../shared/src/groups.ts';
import { consoleApi, data, page, v4, type Page, type MutationOptions } from './client.ts';
import type { SessionUser } from './session.ts';

/** What the groups list keeps in the URL and sends to GET /groups. */
export interface GroupsListQuery {
  search?: string;
  order_by?: 'name' | 'path' | 'id';
  sort?: 'asc' | 'desc';
  page?: number;
  per_page?: number;
  all_available?: boolean;
  /** Only groups where the caller holds at least this role. */
  min_access_level?: 10 | 20 | 30 | 40 | 50;
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

/** The numeric ID or the full path; the client encodes it into the URL. */
const groupPath = (id: string | number) => ({ params: { path: { id: String(id) } } });

export type GroupsPage = Page<GroupListItem>;

export function useGroups(query: GroupsListQuery) {
  return useQuery({
    queryKey: groupsKeys.list(query),
    queryFn: ({ signal }): Promise<GroupsPage> => page(v4.GET('/groups', { params: { query: { per_page: 20, ...query } }, signal })),
    placeholderData: keepPreviousData,
  });
}

export function useGroup(id: string | number) {
  return useQuery({
    queryKey: groupsKeys.detail(id),
    queryFn: ({ signal }) => data(v4.GET('/groups/{id}', { ...groupPath(id), signal })),
  });
}

/** Direct subgroups of a group the caller can see (the first 100, by name). */
export function useSubgroups(group: Pick<GroupDetail, 'id'>) {
  return useQuery({
    queryKey: groupsKeys.subgroups(group.id),
    queryFn: ({ signal }) =>
      data(v4.GET('/groups/{id}/subgroups', { params: { path: { id: String(group.id) }, query: { all_available: true, per_page: 100, order_by: 'name' } }, signal })),
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
    queryFn: ({ signal }) => data(consoleApi.GET('/groups/{id}/abilities', { params: { path: { id: String(group!.id) } }, signal })),
  });
}

export interface GroupUpdate {
  /** Only the fields that changed, in the shape of the PUT body. */
  fields: Partial<GroupUpdateBody>;
  /** A new avatar image to upload (sent as multipart after the other fields). */
  avatarFile?: File | null;
}

export function useUpdateGroup(id: number, options: MutationOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: async ({ fields, avatarFile }: GroupUpdate) => {
      let group: GroupDetail | undefined;
      // Removing the avatar is `avatar: ""` (null means the same to the schema).
      const { avatar, ...rest } = fields;
      const body = avatar === undefined ? rest : { ...rest, avatar: avatar ?? '' };
      if (Object.keys(body).length > 0) group = await data(v4.PUT('/groups/{id}', { ...groupPath(id), body }));
      if (avatarFile) {
        const form = new FormData();
        form.append('avatar', avatarFile, avatarFile.name);
        // Multipart: the typed body is empty, the serializer sends the form instead.
        group = await data(v4.PUT('/groups/{id}', { ...groupPath(id), body: {}, bodySerializer: () => form }));
      }
      return group ?? data(v4.GET('/groups/{id}', groupPath(id)));
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

/** POST /groups: a top-level group, or a subgroup with parent_id. */
export function useCreateGroup(options: MutationOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: (body: GroupCreateBody) => data(v4.POST('/groups', { body })),
    onSettled: () => qc.invalidateQueries({ queryKey: groupsKeys.all }),
  });
}
