import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PersonalAccessToken, PersonalAccessTokenCreateBody } from '../../../shared/src/personal-access-tokens.ts';
import type { User, UserCreateBody } from '../../../shared/src/users.ts';
import { data, page, v4, type MutationOptions, type Page } from './client.ts';
import { markRotated, personalRotations, type WithRotation } from './personal-access-tokens.ts';

/** What the admin area's user list keeps in the URL and sends to GET /users. */
export interface UsersQuery {
  search?: string;
  active?: boolean;
  blocked?: boolean;
  admins?: boolean;
  order_by?: 'name' | 'username' | 'created_at';
  sort?: 'asc' | 'desc';
  page?: number;
  per_page?: number;
}

/** What a user's token list asks GET /personal_access_tokens?user_id= for. */
export interface UserTokensQuery {
  state: 'active' | 'inactive';
  page?: number;
}

export const usersKeys = {
  all: ['users'] as const,
  lists: () => [...usersKeys.all, 'list'] as const,
  list: (query: UsersQuery) => [...usersKeys.lists(), query] as const,
  detail: (id: number) => [...usersKeys.all, 'detail', id] as const,
  tokens: (id: number) => [...usersKeys.all, 'tokens', id] as const,
  tokenList: (id: number, query: UserTokensQuery) => [...usersKeys.tokens(id), query] as const,
};

const userPath = (id: number) => ({ params: { path: { user_id: String(id) } } });

/** A user's profile (GET /users/:id): public fields for everyone, the account's for administrators. */
export function useUser(id: number | undefined) {
  return useQuery({
    queryKey: usersKeys.detail(id ?? 0),
    enabled: id !== undefined,
    queryFn: ({ signal }) => data(v4.GET('/users/{user_id}', { params: { path: { user_id: String(id) } }, signal })),
  });
}

/** A page of users (GET /users); administrators see every account, with its email and state. */
export function useUsers(query: UsersQuery) {
  return useQuery({
    queryKey: usersKeys.list(query),
    queryFn: ({ signal }): Promise<Page<User>> => page(v4.GET('/users', { params: { query: { per_page: 20, ...query } }, signal })),
    placeholderData: keepPreviousData,
  });
}

export function useCreateUser(options: MutationOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: (body: UserCreateBody) => data(v4.POST('/users', { body })),
    onSettled: () => qc.invalidateQueries({ queryKey: usersKeys.lists() }),
  });
}

export function useSetAdministrator(userId: number, options: MutationOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: (admin: boolean) => data(v4.PUT('/users/{user_id}', { ...userPath(userId), body: { admin } })),
    // The answer is the changed user: the page shows it at once, the lists refetch.
    onSuccess: (u) => qc.setQueryData(usersKeys.detail(userId), u),
    onSettled: () => qc.invalidateQueries({ queryKey: usersKeys.all }),
  });
}

export function useSetBlocked(userId: number, options: MutationOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: (blocked: boolean) => data(blocked ? v4.POST('/users/{user_id}/block', userPath(userId)) : v4.POST('/users/{user_id}/unblock', userPath(userId))),
    onSettled: () => qc.invalidateQueries({ queryKey: usersKeys.all }),
  });
}

/** A user's personal access tokens (an administrator's view of GET /personal_access_tokens?user_id=); the inactive ones say which were rotated. */
export function useUserTokens(userId: number, query: UserTokensQuery) {
  return useQuery({
    queryKey: usersKeys.tokenList(userId, query),
    queryFn: async ({ signal }): Promise<Page<WithRotation<PersonalAccessToken>>> => {
      const res = await page(v4.GET('/personal_access_tokens', { params: { query: { user_id: userId, per_page: 20, ...query } }, signal }));
      return { ...res, items: await markRotated(res.items, personalRotations(signal)) };
    },
    placeholderData: keepPreviousData,
  });
}

/**
 * The answer holds the plaintext: `gcTime: 0` drops it from the mutation cache as soon as
 * nothing observes it, and the caller hands it to the reveal dialog and resets the mutation.
 */
export function useCreateUserToken(userId: number, options: MutationOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    gcTime: 0,
    mutationFn: (body: PersonalAccessTokenCreateBody) => data(v4.POST('/users/{user_id}/personal_access_tokens', { ...userPath(userId), body })),
    onSettled: () => qc.invalidateQueries({ queryKey: usersKeys.tokens(userId) }),
  });
}

export function useRevokeUserToken(userId: number, options: MutationOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: (tokenId: number) => data(v4.DELETE('/personal_access_tokens/{token_id}', { params: { path: { token_id: String(tokenId) } } })),
    onSettled: () => qc.invalidateQueries({ queryKey: usersKeys.tokens(userId) }),
  });
}
