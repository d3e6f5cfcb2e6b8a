import { notifications } from '@mantine/notifications';
import type { FieldPath, FieldValues, UseFormSetError } from 'react-hook-form';
import { isApiError, type ApiError, type FieldErrors } from '../api/client.ts';

/** A form's own reading of a server 400: which field shows a path, and what to call the rest. */
export interface ServerErrorTargets<V extends FieldValues> {
  /** The form field that shows the error at `path` (a dotted server path), or null. */
  fieldOf: (path: string) => FieldPath<V> | null;
  /** How a path no field shows is named in the toast. */
  labelOf?: (path: string) => string;
  /** The toast's title, e.g. "Push rules were not saved". */
  title: string;
  /** One toast id per form, so a later attempt replaces the stale toast. */
  toastId?: string;
}

/** The mutation meta of a form that shows field errors itself; every other error gets the default toast. */
export const formShowsFieldErrors = (error: ApiError) => error.fieldErrors !== null;

/** The form's first field marked invalid, in the order the form shows them (in the open dialog, else the page). */
function focusFirstInvalid() {
  const dialogs = document.querySelectorAll('[role="dialog"]');
  const scope = dialogs[dialogs.length - 1] ?? document.querySelector('main') ?? document.body;
  scope.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
}

/**
 * Puts a server 400's field errors under the fields that show them (focusing the first) and says
 * in a toast what no field shows. Returns false when `error` carries no field errors.
 */
export function showServerFieldErrors<V extends FieldValues>(setError: UseFormSetError<V>, error: unknown, targets: ServerErrorTargets<V>): boolean {
  if (!isApiError(error) || !error.fieldErrors) return false;
  showFieldErrors(setError, error.fieldErrors, targets);
  return true;
}

export function showFieldErrors<V extends FieldValues>(setError: UseFormSetError<V>, fieldErrors: FieldErrors, targets: ServerErrorTargets<V>) {
  const elsewhere: string[] = [];
  let first = true;
  for (const [path, messages] of Object.entries(fieldErrors)) {
    const field = targets.fieldOf(path);
    if (field) {
      setError(field, { type: 'server', message: messages.join(' ') }, { shouldFocus: first });
      first = false;
    } else elsewhere.push(`${targets.labelOf?.(path) ?? path}: ${messages.join(', ')}`);
  }
  // The server lists fields in its own order; focus goes to the first one the form shows, once marked.
  if (!first) setTimeout(focusFirstInvalid, 0);
  if (targets.toastId) notifications.hide(targets.toastId);
  notifications.show({
    id: targets.toastId,
    color: 'red',
    title: targets.title,
    message: elsewhere.length ? elsewhere.join('; ') : 'Fix the highlighted fields and try again.',
  });
}
