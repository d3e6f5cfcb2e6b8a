import { notifications } from '@mantine/notifications';
import { isApiError, type ApiError, type MutationMeta } from '../api/client.ts';
import { errorMessage } from './states.tsx';

/**
 * The toast after a failed write. A 401 has already sent the user to sign in, so it says
 * nothing; a 403 says which role is missing when the caller knows.
 */
export function notifyError(title: string, error: unknown, forbidden?: string) {
  if (isApiError(error) && error.status === 401) return;
  const message = isApiError(error) && error.status === 403 && forbidden ? forbidden : errorMessage(error);
  notifications.show({ color: 'red', title, message });
}

/** The default for every failed mutation (wired in main.tsx's MutationCache). */
export function notifyMutationError(error: ApiError, meta: MutationMeta | undefined) {
  if (meta?.showsError?.(error)) return;
  notifyError(meta?.errorTitle ?? 'The change was not saved', error, meta?.forbidden);
}

export function notifySuccess(title: string, message: string) {
  notifications.show({ color: 'teal', title, message });
}
