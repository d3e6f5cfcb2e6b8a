import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { PersonalAccessToken, personalAccessTokenCreateBody, TokenRotation } from '../../../shared/src/personal-access-tokens.ts';
import { consoleApi, data, page, v4, type MutationOptions, type Page } from './client.ts';

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

/** A token of an inactive list, with the rotation that revoked it when one did. */
export type WithRotation<T> = T & { rotation?: TokenRotation };

/**
 * Marks the revoked tokens of a page that a rotation revoked (one console request for the page):
 * the platform's token object does not tell a rotation from a revocation.
 */
export async function markRotated<T extends { id: number; revoked: boolean }>(items: T[], ask: (ids: number[]) => Promise<TokenRotation[]>): Promise<WithRotation<T>[]> {
  const ids = items.filter((t) => t.revoked).map((t) => t.id);
  if (!ids.length) return items;
  const rotations = new Map((await ask(ids)).map((r) => [r.id, r]));
  return items.map((t) => (rotations.has(t.id) ? { ...t, rotation: rotations.get(t.id) } : t));
}

/** Which of these personal tokens were rotated (your own; anyone's for an administrator). */
export const personalRotations = (signal: AbortSignal) => (ids: number[]) => data(consoleApi.GET('/personal_access_tokens/rotations', { params: { query: { ids, per_page: 100 } }, signal }));

/** The signed-in user's own tokens (user_id keeps an administrator's list to their own too); the inactive ones say which were rotated. */
export function usePersonalAccessTokens(userId: number, query: PersonalTokensQuery) {
  return useQuery({
    queryKey: personalAccessTokensKeys.list(userId, query),
    queryFn: async ({ signal }): Promise<Page<WithRotation<PersonalAccessToken>>> => {
      const res = await page(v4.GET('/personal_access_tokens', { params: { query: { per_page: 20, user_id: userId, ...query } }, signal }));
      return { ...res, items: await markRotated(res.items.map(withoutSecret), personalRotations(signal)) };
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
