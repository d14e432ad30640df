import type { AccessRole, AccessUser } from '@platform/contracts';
import { Button } from '../../../ui/button';
import { Badge, formatDate } from '../../../ui/misc';
import { ownerErrorMessage } from '../api';
import { ROLE_LABELS } from '../access';
import { userChangeError, useUpdateOwnerUser } from './hooks';

interface Props {
  user: AccessUser;
  self: boolean;
  /** Whether the signed-in user may change this one (owners alone change owners). */
  editable: boolean;
  /** The roles the signed-in user may give. */
  roles: AccessRole[];
  /** A refused change, in words (the last owner's 409 among them), or '' once a change went through. */
  onProblem: (text: string) => void;
  onRemove: () => void;
}

interface ActionsProps {
  who: string;
  access: boolean;
  self: boolean;
  busy: boolean;
  onAccess: () => void;
  onRemove: () => void;
}

/** Access off or on (not one's own: an owner removes themselves instead), and Remove. */
function RowActions({ who, access, self, busy, onAccess, onRemove }: ActionsProps) {
  return (
    <div className="row-actions">
      {!self && (
        <Button
          className="btn-small"
          busy={busy}
          onClick={onAccess}
          aria-label={`${access ? 'Turn access off' : 'Turn access on'} for ${who}`}
        >
          {access ? 'Turn access off' : 'Turn access on'}
        </Button>
      )}
      <Button className="btn-small" variant="danger" onClick={onRemove} aria-label={`Remove ${who}`}>
        Remove
      </Button>
    </div>
  );
}

export function UserRow({ user, self, editable, roles, onProblem, onRemove }: Props) {
  const update = useUpdateOwnerUser();
  const who = user.name || user.email;
  const change = (body: { role?: AccessRole; access?: boolean }) => {
    onProblem('');
    update.mutate(
      { userId: user.id, ...body },
      { onError: (error) => onProblem(`${who}: ${userChangeError(error, ownerErrorMessage, self)}`) },
    );
  };
  return (
    <tr>
      <td className="break">
        <strong>{user.name ?? user.email}</strong> {self && <span className="muted">(you)</span>}
        {user.name && <div className="muted">{user.email}</div>}
      </td>
      <td>
        {editable ? (
          <select
            className="inline-select"
            aria-label={`Role of ${who}`}
            value={user.role}
            disabled={update.isPending}
            onChange={(e) => change({ role: e.target.value as AccessRole })}
          >
            {roles.map((r) => (
              <option key={r} value={r}>
                {ROLE_LABELS[r]}
              </option>
            ))}
          </select>
        ) : (
          ROLE_LABELS[user.role]
        )}
      </td>
      <td data-label="Access">
        <Badge tone={user.access ? 'green' : 'gray'}>{user.access ? 'On' : 'Off'}</Badge>
      </td>
      <td className="nowrap" data-label="Last sign-in">
        {user.last_sign_in_at ? formatDate(user.last_sign_in_at) : 'Never'}
      </td>
      <td>
        {editable && (
          <RowActions
            who={who}
            access={user.access}
            self={self}
            busy={update.isPending}
            onAccess={() => change({ access: !user.access })}
            onRemove={onRemove}
          />
        )}
      </td>
    </tr>
  );
}
