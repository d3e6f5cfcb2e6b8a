import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { GroupAccessToken, GroupAccessTokenCreateBody, GroupAccessTokenListQuery } from '../../../shared/src/group-access-tokens.ts';
import { consoleApi, data, page, v4, type Page, type MutationOptions } from './client.ts';
import { markRotated, type WithRotation } from './personal-access-tokens.ts';

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

const group = (groupId: number) => ({ id: String(groupId) });

export type AccessTokensPage = Page<WithRotation<GroupAccessToken>>;

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
      const res = await page(v4.GET('/groups/{id}/access_tokens', { params: { path: group(groupId), query: { per_page: 20, ...query } }, signal }));
      const rotations = (ids: number[]) => data(consoleApi.GET('/groups/{id}/access_tokens/rotations', { params: { path: group(groupId), query: { ids, per_page: 100 } }, signal }));
      return { ...res, items: await markRotated(res.items.map(withoutSecret), rotations) };
    },
    placeholderData: keepPreviousData,
  });
}

/**
 * Create and rotate answer with the plaintext. Their results must not outlive the reveal dialog:
 * `gcTime: 0` drops the mutation from the cache as soon as nothing observes it, and callers
 * `reset()` it right after handing the token to the dialog.
 */
export function useCreateGroupAccessToken(groupId: number, options: MutationOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    gcTime: 0,
    mutationFn: (body: GroupAccessTokenCreateBody) => data(v4.POST('/groups/{id}/access_tokens', { params: { path: group(groupId) }, body })),
    onSettled: () => qc.invalidateQueries({ queryKey: groupAccessTokensKeys.group(groupId) }),
  });
}

export function useRotateGroupAccessToken(groupId: number, options: MutationOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    gcTime: 0,
    mutationFn: ({ tokenId, expires_at }: { tokenId: number; expires_at?: string }) =>
      data(
        v4.POST('/groups/{id}/access_tokens/{token_id}/rotate', {
          params: { path: { ...group(groupId), token_id: String(tokenId) } },
          body: expires_at ? { expires_at } : {},
        }),
      ),
    onSettled: () => qc.invalidateQueries({ queryKey: groupAccessTokensKeys.group(groupId) }),
  });
}

export function useRevokeGroupAccessToken(groupId: number, options: MutationOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: (tokenId: number) => data(v4.DELETE('/groups/{id}/access_tokens/{token_id}', { params: { path: { ...group(groupId), token_id: String(tokenId) } } })),
    onSettled: () => qc.invalidateQueries({ queryKey: groupAccessTokensKeys.group(groupId) }),
  });
}
