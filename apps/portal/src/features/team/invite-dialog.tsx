import { createUserBodySchema, USER_ROLES } from '@platform/contracts';
import { useState, type FormEvent } from 'react';
import { errorMessage } from '../../api/errors';
import { apiFieldErrors, formValues, validate, type FieldErrors } from '../../forms';
import { Dialog } from '../../ui/dialog';
import { InviteFields } from '../../ui/invite-fields';
import { useInviteUser } from './hooks';
import { ROLE_LABELS } from './roles';

export function InviteDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [errors, setErrors] = useState<FieldErrors>({});
  const invite = useInviteUser();
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const checked = validate(createUserBodySchema, formValues(event.currentTarget));
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
        <InviteFields
          roles={USER_ROLES.map((r) => ({ value: r, label: ROLE_LABELS[r] }))}
          defaultRole="DEVELOPER"
          errors={errors}
          pending={invite.isPending}
          onCancel={onClose}
        />
      </form>
    </Dialog>
  );
}
