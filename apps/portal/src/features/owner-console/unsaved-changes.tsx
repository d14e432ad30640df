// Unsaved edits are safe: leaving the screen in the app asks first, and closing or reloading the tab
// gets the browser's own warning.
import { useEffect } from 'react';
import { useBlocker } from 'react-router';
import { ConfirmDialog } from '../../ui/confirm-dialog';

export function UnsavedChangesGuard({ dirty, what }: { dirty: boolean; what: string }) {
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname,
  );
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);
  return (
    <ConfirmDialog
      open={blocker.state === 'blocked'}
      title="Leave without saving?"
      confirmLabel="Discard changes"
      cancelLabel="Keep editing"
      onClose={() => blocker.reset?.()}
      onConfirm={() => blocker.proceed?.()}
    >
      Your changes to {what} are not saved yet.
    </ConfirmDialog>
  );
}
