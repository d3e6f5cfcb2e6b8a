import { useQuery } from '@tanstack/react-query';
import { data, v4 } from './client.ts';

export const usersKeys = {
  all: ['users'] as const,
  detail: (id: number) => [...usersKeys.all, 'detail', id] as const,
};

/** A user's public profile (GET /users/:id), for showing who owns something by name. */
export function useUser(id: number | undefined) {
  return useQuery({
    queryKey: usersKeys.detail(id ?? 0),
    enabled: id !== undefined,
    queryFn: ({ signal }) => data(v4.GET('/users/{user_id}', { params: { path: { user_id: String(id) } }, signal })),
  });
}
