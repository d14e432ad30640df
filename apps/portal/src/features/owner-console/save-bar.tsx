import { Button } from '../../ui/button';

/** A form's foot: whether anything is unsaved, Discard and Save (sticky at the bottom of the screen while there is). */
export function SaveBar({ dirty, pending, onDiscard }: { dirty: boolean; pending: boolean; onDiscard: () => void }) {
  return (
    <div className={`save-bar${dirty ? ' save-bar-dirty' : ''}`}>
      <span className="save-bar-text">{dirty ? 'You have unsaved changes.' : 'No unsaved changes.'}</span>
      <Button disabled={!dirty || pending} onClick={onDiscard}>
        Discard
      </Button>
      <Button type="submit" variant="primary" disabled={!dirty} busy={pending} busyLabel="Saving…">
        Save changes
      </Button>
    </div>
  );
}
