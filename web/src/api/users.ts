import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { userBasic } from '../../../shared/src/users.ts';
import { api } from './client.ts';

type UserBasic = z.infer<typeof userBasic>;

export const usersKeys = {
  all: ['users'] as const,
  detail: (id: number) => [...usersKeys.all, 'detail', id] as const,
};

/** A user's public profile (GET /users/:id), for showing who owns something by name. */
export function useUser(id: number | undefined) {
  return useQuery({
    queryKey: usersKeys.detail(id ?? 0),
    enabled: id !== undefined,
    queryFn: ({ signal }) => api.get<UserBasic>(`/api/v4/users/${id}`, { signal }),
  });
}
