import type { ReactNode } from 'react';
import { Button } from './button';
import { Dialog } from './dialog';

interface Props {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  /** The safe way out, the default button (Cancel unless said). */
  cancelLabel?: string;
  busy?: boolean;
  error?: string;
  onConfirm: () => void;
  onClose: () => void;
}

/** Asks before something that cannot be undone; the dangerous button is never the default. */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  cancelLabel = 'Cancel',
  busy,
  error,
  onConfirm,
  onClose,
}: Props) {
  return (
    <Dialog
      open={open}
      title={title}
      onClose={onClose}
      description={children}
      actions={
        <>
          <Button onClick={onClose} autoFocus>
            {cancelLabel}
          </Button>
          <Button variant="danger" busy={busy} onClick={onConfirm}>
            {confirmLabel}
          </Button>
        </>
      }
    >
      {error && (
        <p className="form-message form-message-error" role="alert">
          {error}
        </p>
      )}
    </Dialog>
  );
}
