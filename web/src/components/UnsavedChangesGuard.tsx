import { useEffect } from 'react';
import { useBlocker } from 'react-router';
import { ConfirmDialog } from './ConfirmDialog.tsx';

/**
 * Asks before leaving a page whose form holds unsaved edits: a link or Back inside the console
 * gets a dialog, closing or reloading the tab the browser's own question. Call it in a form with
 * its dirty state and render what it returns:
 *
 *   const leaveGuard = useUnsavedChangesGuard(form.formState.isDirty && !save.isSuccess);
 *   return <form>… {leaveGuard}</form>;
 *
 * Moves within the same page (its search and sort in the URL) are not leaving it.
 */
export function useUnsavedChangesGuard(dirty: boolean) {
  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname);

  useEffect(() => {
    if (!dirty) return;
    const ask = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [dirty]);

  return (
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
}
