import { USER_ROLES } from '@platform/contracts';
import { useState, type FormEvent } from 'react';
import { errorMessage } from '../../api/errors';
import { inviteUserBodySchema } from '../../api/pending.schema';
import { apiFieldErrors, formValues, validate, type FieldErrors } from '../../forms';
import { Button } from '../../ui/button';
import { Dialog } from '../../ui/dialog';
import { FormMessage, SelectField, TextField } from '../../ui/field';
import { useInviteUser } from './hooks';
import { ROLE_LABELS } from './roles';

export function InviteDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [errors, setErrors] = useState<FieldErrors>({});
  const invite = useInviteUser();
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const checked = validate(inviteUserBodySchema, formValues(event.currentTarget));
    if (!checked.ok) return setErrors(checked.errors);
    setErrors({});
    invite.mutate(checked.data, {
      onSuccess: onClose,
      onError: (error) => setErrors(apiFieldErrors(error, errorMessage)),
    });
  };
  return (
    <Dialog
      open={open}
      title="Invite a teammate"
      onClose={onClose}
      description="They get an e-mail with a sign-in link."
    >
      <form onSubmit={submit} noValidate>
        <TextField label="E-mail address" name="email" type="email" required autoFocus error={errors.email} />
        <TextField label="Name (optional)" name="name" error={errors.name} />
        <SelectField
          label="Role"
          name="role"
          options={USER_ROLES.map((r) => ({ value: r, label: ROLE_LABELS[r] }))}
          defaultValue="DEVELOPER"
          error={errors.role}
        />
        {errors.form && <FormMessage tone="error">{errors.form}</FormMessage>}
        <div className="dialog-actions">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" busy={invite.isPending} busyLabel="Inviting…">
            Send invitation
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
