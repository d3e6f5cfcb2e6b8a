import { useEffect, useRef, type ReactNode } from 'react';
import { useBlocker } from 'react-router';
import { ConfirmDialog } from './ConfirmDialog.tsx';

/**
 * Asks before leaving a page whose form holds unsaved edits: a link or Back inside the console
 * gets a dialog, closing or reloading the tab the browser's own question. Call it in a form with
 * its dirty state and render its dialog; a form that navigates once it has saved calls
 * `release()` first (the saved state reaches the guard only with the next render):
 *
 *   const leave = useUnsavedChangesGuard(form.formState.isDirty);
 *   … await save(); leave.release(); navigate(…);
 *   return <form>… {leave.dialog}</form>;
 *
 * Moves within the same page (its search and sort in the URL) are not leaving it.
 */
export function useUnsavedChangesGuard(dirty: boolean): { dialog: ReactNode; release: () => void } {
  const released = useRef(false);
  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirty && !released.current && currentLocation.pathname !== nextLocation.pathname);

  useEffect(() => {
    // Once the form is clean again, new edits are guarded again.
    if (!dirty) released.current = false;
    if (!dirty || released.current) return;
    const ask = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [dirty]);

  const dialog = (
    <ConfirmDialog
      opened={blocker.state === 'blocked'}
      title="Leave without saving?"
      confirmLabel="Leave and discard changes"
      onConfirm={() => blocker.proceed?.()}
      onClose={() => blocker.reset?.()}
    >
      Your changes on this page have not been saved. Leaving discards them.
    </ConfirmDialog>
  );
  return { dialog, release: () => (released.current = true) };
}
