import { useEffect, useId, useSyncExternalStore } from 'react';

/**
 * Where a failed write is told when a dialog is open: inside the dialog on top, which is where
 * the user made it, not in a toast over the dialog's title that vanishes. It stays until the
 * next try starts (any write: main.tsx's MutationCache) or the dialog closes.
 */
export interface DialogError {
  title: string;
  message: string;
}

/** The open dialogs, newest (on top) last, and what each shows. */
const open: string[] = [];
const shown = new Map<string, DialogError>();
const listeners = new Set<() => void>();
const changed = () => listeners.forEach((l) => l());
const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

/** Registers an open dialog; what it is to show, if a write made from it failed. */
export function useDialogError(opened: boolean): DialogError | null {
  const id = useId();
  useEffect(() => {
    if (!opened) return;
    open.push(id);
    return () => {
      open.splice(open.indexOf(id), 1);
      if (shown.delete(id)) changed();
    };
  }, [opened, id]);
  return useSyncExternalStore(subscribe, () => shown.get(id) ?? null);
}

/** Shows a failed write in the dialog on top; false when no dialog is open. */
export function showInDialog(error: DialogError): boolean {
  const top = open.at(-1);
  if (top === undefined) return false;
  shown.set(top, error);
  changed();
  return true;
}

/** A new try starts: the dialog on top lets go of the last failure. */
export function clearDialogError(): void {
  const top = open.at(-1);
  if (top !== undefined && shown.delete(top)) changed();
}
