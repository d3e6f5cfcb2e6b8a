import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { DeployToken, deployTokenCreateBody } from '../../../shared/src/deploy-tokens.ts';
import { data, page, v4, type MutationOptions, type Page } from './client.ts';

export const deployTokensKeys = {
  all: ['deploy-tokens'] as const,
  group: (groupId: number) => [...deployTokensKeys.all, groupId] as const,
  list: (groupId: number, query: { active?: boolean; page?: number }) => [...deployTokensKeys.group(groupId), query] as const,
};

export function useGroupDeployTokens(groupId: number, query: { active?: boolean; page?: number }) {
  return useQuery({
    queryKey: deployTokensKeys.list(groupId, query),
    queryFn: async ({ signal }): Promise<Page<DeployToken>> => {
      const res = await page(v4.GET('/groups/{id}/deploy_tokens', { params: { path: { id: String(groupId) }, query: { per_page: 20, ...query } }, signal }));
      // Only the listed fields are kept: the cache never holds a plaintext.
      return { ...res, items: res.items.map(({ id, name, username, expires_at, scopes, revoked, expired }) => ({ id, name, username, expires_at, scopes, revoked, expired })) };
    },
    placeholderData: keepPreviousData,
  });
}

/** The answer carries the plaintext once: `gcTime: 0`, and the caller resets the mutation after the reveal. */
export function useCreateGroupDeployToken(groupId: number, options: MutationOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    gcTime: 0,
    mutationFn: (body: z.output<typeof deployTokenCreateBody>) => data(v4.POST('/groups/{id}/deploy_tokens', { params: { path: { id: String(groupId) } }, body })),
    onSettled: () => qc.invalidateQueries({ queryKey: deployTokensKeys.group(groupId) }),
  });
}

export function useRevokeGroupDeployToken(groupId: number, options: MutationOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: (tokenId: number) => data(v4.DELETE('/groups/{id}/deploy_tokens/{token_id}', { params: { path: { id: String(groupId), token_id: String(tokenId) } } })),
    onSettled: () => qc.invalidateQueries({ queryKey: deployTokensKeys.group(groupId) }),
  });
}
