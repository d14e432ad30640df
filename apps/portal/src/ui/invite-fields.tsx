import type { FieldErrors } from '../forms';
import { Button } from './button';
import { FormMessage, SelectField, TextField } from './field';

/**
 * An invitation's fields and actions (e-mail, name, role; Cancel, Send invitation): the partner's
 * team and the owner console's users invite the same way, with their own roles.
 */
export function InviteFields(props: {
  roles: { value: string; label: string }[];
  defaultRole: string;
  errors: FieldErrors;
  pending: boolean;
  onCancel: () => void;
}) {
  const { errors } = props;
  return (
    <>
      <TextField label="E-mail address" name="email" type="email" required autoFocus error={errors.email} />
      <TextField label="Name (optional)" name="name" error={errors.name} />
      <SelectField
        label="Role"
        name="role"
        options={props.roles}
        defaultValue={props.defaultRole}
        error={errors.role}
      />
      {errors.form && <FormMessage tone="error">{errors.form}</FormMessage>}
      <div className="dialog-actions">
        <Button onClick={props.onCancel}>Cancel</Button>
        <Button type="submit" variant="primary" busy={props.pending} busyLabel="Inviting…">
          Send invitation
        </Button>
      </div>
    </>
  );
}
