import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SessionInfo, SignInBody } from '../../../shared/src/session.ts';
import { ApiError, consoleApi, data, setCsrfToken, type MutationOptions } from './client.ts';

export const sessionKeys = {
  all: ['session'] as const,
  current: () => [...sessionKeys.all, 'current'] as const,
};

export type SessionUser = SessionInfo['user'];

/** The signed-in session, or null when there is none. Keeps the CSRF token in memory. */
export async function fetchSession(): Promise<SessionInfo | null> {
  try {
    const info = await data(consoleApi.GET('/session'), { allowUnauthorized: true });
    setCsrfToken(info.csrf_token);
    return info;
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) {
      setCsrfToken(null);
      return null;
    }
    throw e;
  }
}

export function useSession() {
  return useQuery({
    queryKey: sessionKeys.current(),
    queryFn: fetchSession,
    staleTime: 5 * 60_000,
    retry: (count, e) => !(e instanceof ApiError && e.status < 500) && count < 2,
  });
}

/** The signed-in user; only for screens rendered inside the signed-in layout. */
export function useCurrentUser(): SessionUser {
  const { data } = useSession();
  if (!data) throw new Error('useCurrentUser outside a signed-in screen');
  return data.user;
}

export function useSignIn(options: MutationOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: (body: SignInBody) => data(consoleApi.POST('/session', { body }), { allowUnauthorized: true }),
    onSuccess: (info) => {
      setCsrfToken(info.csrf_token);
      // Whatever was cached belonged to someone else (or to nobody).
      qc.removeQueries({ predicate: (q) => q.queryKey[0] !== sessionKeys.all[0] });
      qc.setQueryData(sessionKeys.current(), info);
    },
  });
}

/**
 * Signs out, then reloads the console on the sign-in page: a fresh page load is the surest
 * way to drop every cached answer and the CSRF token held in memory.
 */
export function useSignOut(options: MutationOptions = {}) {
  return useMutation({
    ...options,
    mutationFn: () => data(consoleApi.DELETE('/session'), { allowUnauthorized: true }),
    onSettled: () => {
      setCsrfToken(null);
      window.location.assign('/sign-in');
    },
  });
}
