import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  GroupAccessToken,
  GroupAccessTokenCreateBody,
  GroupAccessTokenListQuery,
  GroupAccessTokenWithToken,
} from '../../../shared/src/group-access-tokens.ts';
import { api, pageInfo, request, type PageInfo } from './client.ts';

/** What the access-token list keeps in the URL and sends to GET /groups/:id/access_tokens. */
export type AccessTokensQuery = Pick<
  GroupAccessTokenListQuery,
  'state' | 'search' | 'sort' | 'revoked' | 'expires_before' | 'last_used_before' | 'last_used_after' | 'page' | 'per_page'
>;

export const groupAccessTokensKeys = {
  all: ['group-access-tokens'] as const,
  group: (groupId: number) => [...groupAccessTokensKeys.all, groupId] as const,
  lists: (groupId: number) => [...groupAccessTokensKeys.group(groupId), 'list'] as const,
  list: (groupId: number, query: AccessTokensQuery) => [...groupAccessTokensKeys.lists(groupId), query] as const,
};

const tokensUrl = (groupId: number) => `/api/v4/groups/${groupId}/access_tokens`;

export interface AccessTokensPage {
  items: GroupAccessToken[];
  page: PageInfo;
}

/**
 * The list never carries a plaintext, but the cache must not hold one even if the server ever
 * sent it: only the listed fields are kept.
 */
const withoutSecret = (t: GroupAccessToken & { token?: unknown }): GroupAccessToken => {
  const { token: _token, ...rest } = t;
  return rest;
};

export function useGroupAccessTokens(groupId: number, query: AccessTokensQuery, opts: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: groupAccessTokensKeys.list(groupId, query),
    enabled: opts.enabled ?? true,
    queryFn: async ({ signal }): Promise<AccessTokensPage> => {
      const res = await request<GroupAccessToken[]>(tokensUrl(groupId), { query: { per_page: 20, ...query }, signal });
      return { items: res.data.map(withoutSecret), page: pageInfo(res.headers) };
    },
    placeholderData: keepPreviousData,
  });
}

/**
 * Create and rotate answer with the plaintext. Their results must not outlive the reveal dialog:
 * `gcTime: 0` drops the mutation from the cache as soon as nothing observes it, and callers
 * `reset()` it right after handing the token to the dialog.
 */
export function useCreateGroupAccessToken(groupId: number) {
  const qc = useQueryClient();
  return useMutation({
    gcTime: 0,
    mutationFn: (body: GroupAccessTokenCreateBody) => api.post<GroupAccessTokenWithToken>(tokensUrl(groupId), body),
    onSettled: () => qc.invalidateQueries({ queryKey: groupAccessTokensKeys.group(groupId) }),
  });
}

export function useRotateGroupAccessToken(groupId: number) {
  const qc = useQueryClient();
  return useMutation({
    gcTime: 0,
    mutationFn: ({ tokenId, expires_at }: { tokenId: number; expires_at?: string }) =>
      api.post<GroupAccessTokenWithToken>(`${tokensUrl(groupId)}/${tokenId}/rotate`, expires_at ? { expires_at } : {}),
    onSettled: () => qc.invalidateQueries({ queryKey: groupAccessTokensKeys.group(groupId) }),
  });
}

export function useRevokeGroupAccessToken(groupId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (tokenId: number) => api.delete<void>(`${tokensUrl(groupId)}/${tokenId}`),
    onSettled: () => qc.invalidateQueries({ queryKey: groupAccessTokensKeys.group(groupId) }),
  });
}
