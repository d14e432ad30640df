import { useState, type FormEvent } from 'react';
import { errorMessage } from '../../api/errors';
import type { ApiKey } from '../../api/pending.schema';
import { rollApiKeyBodySchema } from '../../api/pending.schema';
import { apiFieldErrors, validate, type FieldErrors } from '../../forms';
import { Button } from '../../ui/button';
import { Dialog } from '../../ui/dialog';
import { FormMessage, TextField } from '../../ui/field';
import { useRollApiKey } from './hooks';

/** A new secret for a key; the old one keeps working for the chosen overlap (0 to 168 hours). */
export function RollKeyDialog({
  apiKey,
  onClose,
  onRolled,
}: {
  apiKey: ApiKey | null;
  onClose: () => void;
  onRolled: (secret: string) => void;
}) {
  const [errors, setErrors] = useState<FieldErrors>({});
  const roll = useRollApiKey();
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const hours = Number(new FormData(event.currentTarget).get('overlap_hours'));
    const checked = validate(rollApiKeyBodySchema, { overlap_hours: hours });
    if (!checked.ok || !apiKey) return setErrors(checked.ok ? {} : checked.errors);
    setErrors({});
    roll.mutate(
      { keyId: apiKey.id, overlap_hours: checked.data.overlap_hours },
      { onSuccess: (key) => onRolled(key.secret), onError: (error) => setErrors(apiFieldErrors(error, errorMessage)) },
    );
  };
  return (
    <Dialog
      open={apiKey !== null}
      title={`Roll “${apiKey?.name ?? ''}”`}
      onClose={onClose}
      description="You get a new secret. The old one keeps working for the overlap you choose, so you can deploy the new one first."
    >
      <form onSubmit={submit} noValidate>
        <TextField
          label="Overlap in hours (0 to 168)"
          name="overlap_hours"
          type="number"
          min={0}
          max={168}
          defaultValue={24}
          error={errors.overlap_hours}
        />
        {errors.form && <FormMessage tone="error">{errors.form}</FormMessage>}
        <div className="dialog-actions">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" busy={roll.isPending} busyLabel="Rolling…">
            Roll key
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
