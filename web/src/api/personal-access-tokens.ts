import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { PersonalAccessToken, personalAccessTokenCreateBody } from '../../../shared/src/personal-access-tokens.ts';
import { data, page, v4, type MutationOptions, type Page } from './client.ts';

export interface PersonalTokensQuery {
  state: 'active' | 'inactive';
  search?: string;
  page?: number;
  per_page?: number;
}

export const personalAccessTokensKeys = {
  all: ['personal-access-tokens'] as const,
  list: (userId: number, query: PersonalTokensQuery) => [...personalAccessTokensKeys.all, userId, query] as const,
};

const withoutSecret = (t: PersonalAccessToken & { token?: unknown }): PersonalAccessToken => {
  const { token: _token, ...rest } = t;
  return rest;
};

/** The signed-in user's own tokens (user_id keeps an administrator's list to their own too). */
export function usePersonalAccessTokens(userId: number, query: PersonalTokensQuery) {
  return useQuery({
    queryKey: personalAccessTokensKeys.list(userId, query),
    queryFn: async ({ signal }): Promise<Page<PersonalAccessToken>> => {
      const res = await page(v4.GET('/personal_access_tokens', { params: { query: { per_page: 20, user_id: userId, ...query } }, signal }));
      return { ...res, items: res.items.map(withoutSecret) };
    },
    placeholderData: keepPreviousData,
  });
}

/**
 * Create and rotate answer with the plaintext: `gcTime: 0` and the callers' `reset()` keep it
 * out of every cache; only the reveal dialog holds it. Creating goes through
 * POST /user/personal_access_tokens, which gives a console session any scope.
 */
export function useCreatePersonalAccessToken(options: MutationOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    gcTime: 0,
    mutationFn: (body: z.output<typeof personalAccessTokenCreateBody>) => data(v4.POST('/user/personal_access_tokens', { body })),
    onSettled: () => qc.invalidateQueries({ queryKey: personalAccessTokensKeys.all }),
  });
}

export function useRotatePersonalAccessToken(options: MutationOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    gcTime: 0,
    mutationFn: ({ tokenId, expires_at }: { tokenId: number; expires_at?: string }) =>
      data(v4.POST('/personal_access_tokens/{token_id}/rotate', { params: { path: { token_id: String(tokenId) } }, body: expires_at ? { expires_at } : {} })),
    onSettled: () => qc.invalidateQueries({ queryKey: personalAccessTokensKeys.all }),
  });
}

export function useRevokePersonalAccessToken(options: MutationOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: (tokenId: number) => data(v4.DELETE('/personal_access_tokens/{token_id}', { params: { path: { token_id: String(tokenId) } } })),
    onSettled: () => qc.invalidateQueries({ queryKey: personalAccessTokensKeys.all }),
  });
}
