import { notifications, notificationsStore, type NotificationData } from '@mantine/notifications';
import { isApiError, type ApiError, type MutationMeta } from '../api/client.ts';
import { errorMessage } from './states.tsx';
import { showInDialog } from './dialog-errors.ts';

/**
 * What a failed write says, in the dialog it was made from (dialog-errors.ts) or else in a
 * toast. A 401 has already sent the user to sign in, so it says nothing; a 403 says which role
 * is missing when the caller knows.
 */
export function notifyError(title: string, error: unknown, forbidden?: string) {
  if (isApiError(error) && error.status === 401) return;
  const message = isApiError(error) && error.status === 403 && forbidden ? forbidden : errorMessage(error);
  if (showInDialog({ title, message })) return;
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

/*
 * One outcome per screen: a new outcome toast ("Settings saved") replaces the ones shown before it
 * on the same screen ("Settings were not saved"), so two verdicts on one action never stand side
 * by side. Watching the store covers every toast, however the screen showed it; a toast still
 * loading (a test being sent) is not an outcome yet.
 */
const screenOf = new Map<string, string>();
const isOutcome = (n: NotificationData) => !n.loading;

notificationsStore.subscribe((state) => {
  const all = [...state.notifications, ...state.queue];
  const fresh = all.filter((n) => n.id && !screenOf.has(n.id));
  for (const n of fresh) screenOf.set(n.id!, window.location.pathname);
  for (const id of screenOf.keys()) if (!all.some((n) => n.id === id)) screenOf.delete(id);
  const newest = fresh.filter(isOutcome).at(-1);
  if (!newest) return;
  const screen = screenOf.get(newest.id!);
  const older = all.filter((n) => n.id !== newest.id && !fresh.includes(n) && isOutcome(n) && screenOf.get(n.id!) === screen);
  if (older.length) queueMicrotask(() => older.forEach((n) => notifications.hide(n.id!)));
});
