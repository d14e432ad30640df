import { Button } from './button';
import { CopyButton } from './copy-button';
import { Dialog } from './dialog';

/** A new secret, shown once: kept only in this dialog's props, gone when it closes. */
export function SecretDialog({
  title,
  secret,
  onClose,
}: {
  title: string;
  secret: string | null;
  onClose: () => void;
}) {
  return (
    <Dialog
      open={secret !== null}
      title={title}
      onClose={onClose}
      description="Copy the secret now and keep it somewhere safe. It is shown only this once; if you lose it, roll the key."
      actions={
        <Button variant="primary" onClick={onClose}>
          Done, I copied it
        </Button>
      }
    >
      <code className="secret" aria-label="Secret">
        {secret}
      </code>
      {secret && <CopyButton text={secret} label="Copy secret" />}
    </Dialog>
  );
}
