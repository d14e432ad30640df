import { inviteAccessUserBodySchema, type AccessRole } from '@platform/contracts';
import { useState, type FormEvent } from 'react';
import { ApiError } from '../../../api/client';
import { apiFieldErrors, formValues, validate, type FieldErrors } from '../../../forms';
import { Dialog } from '../../../ui/dialog';
import { InviteFields } from '../../../ui/invite-fields';
import { ownerErrorMessage } from '../api';
import { ROLE_HINTS, ROLE_LABELS } from '../access';
import { useInviteOwnerUser } from './hooks';

const inviteError = (error: unknown) =>
  error instanceof ApiError && error.code === 'ACCESS_USER.ALREADY_EXISTS'
    ? 'This address already has access to your account.'
    : ownerErrorMessage(error);

/** Invite: an e-mail with a sign-in link goes to them; the roles offered are the ones the inviter may give. */
export function InviteDialog({ open, roles, onClose }: { open: boolean; roles: AccessRole[]; onClose: () => void }) {
  const [errors, setErrors] = useState<FieldErrors>({});
  const invite = useInviteOwnerUser();
  const close = () => (setErrors({}), invite.reset(), onClose());
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const checked = validate(inviteAccessUserBodySchema, formValues(event.currentTarget));
    if (!checked.ok) return setErrors(checked.errors);
    setErrors({});
    invite.mutate(checked.data, {
      onSuccess: close,
      onError: (error) => setErrors(apiFieldErrors(error, inviteError)),
    });
  };
  return (
    <Dialog open={open} title="Invite a user" onClose={close} description="They get an e-mail with a sign-in link.">
      <form onSubmit={submit} noValidate>
        <InviteFields
          roles={roles.map((r) => ({ value: r, label: `${ROLE_LABELS[r]}: ${ROLE_HINTS[r]}` }))}
          defaultRole="VIEWER"
          errors={errors}
          pending={invite.isPending}
          onCancel={close}
        />
      </form>
    </Dialog>
  );
}
