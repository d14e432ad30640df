import { PERMISSIONS } from '@platform/contracts';
import { useState, type FormEvent } from 'react';
import { errorMessage } from '../../api/errors';
import { createApiKeyBodySchema } from '../../api/pending.schema';
import { apiFieldErrors, checkedValues, formValues, validate, type FieldErrors } from '../../forms';
import { Button } from '../../ui/button';
import { Checkbox, FormMessage, TextField } from '../../ui/field';
import { Dialog } from '../../ui/dialog';
import { useCreateApiKey } from './hooks';

/** Name, permissions (restricted keys), an optional IP and expiry; answers with the secret. */
export function CreateKeyDialog({
  open,
  onClose,
  onCreated,
}: {
  open: boolean;
  onClose: () => void;
  onCreated: (secret: string) => void;
}) {
  const [errors, setErrors] = useState<FieldErrors>({});
  const create = useCreateApiKey();
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const { name, allowed_ip, expires_on } = formValues(form);
    const body = {
      name,
      permissions: checkedValues(form, 'permissions'),
      ...(allowed_ip ? { allowed_ip } : {}),
      ...(expires_on ? { expires_at: new Date(`${expires_on}T23:59:59Z`).toISOString() } : {}),
    };
    const checked = validate(createApiKeyBodySchema, body);
    if (!checked.ok) return setErrors(checked.errors);
    setErrors({});
    create.mutate(checked.data, {
      onSuccess: (key) => onCreated(key.secret),
      onError: (error) => setErrors(apiFieldErrors(error, errorMessage)),
    });
  };
  return (
    <Dialog open={open} title="Create API key" onClose={onClose}>
      <form onSubmit={submit} noValidate>
        <TextField
          label="Name"
          name="name"
          required
          autoFocus
          error={errors.name}
          hint="What uses it, like “Shop sync”"
        />
        <fieldset aria-describedby={errors.permissions ? 'key-permissions-error' : undefined}>
          <legend>Permissions</legend>
          {PERMISSIONS.map((p) => (
            <Checkbox key={p} name="permissions" value={p} label={p} defaultChecked={p.endsWith(':read')} />
          ))}
          {errors.permissions && (
            <p className="field-error" id="key-permissions-error">
              {errors.permissions}
            </p>
          )}
        </fieldset>
        <TextField label="Allowed IP address (optional)" name="allowed_ip" error={errors.allowed_ip} />
        <TextField label="Expires on (optional)" name="expires_on" type="date" error={errors.expires_at} />
        {errors.form && <FormMessage tone="error">{errors.form}</FormMessage>}
        <div className="dialog-actions">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" busy={create.isPending} busyLabel="Creating…">
            Create key
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
