import { USER_ROLES, type UserRole } from '@platform/contracts';
import { useState } from 'react';
import { errorMessage } from '../../api/errors';
import type { User } from '@platform/contracts';
import { can, useSession } from '../../auth/session';
import { Button } from '../../ui/button';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { queryState } from '../../api/query-state';
import { ListSection, type ListColumn } from '../../ui/list-section';
import { FormMessage } from '../../ui/field';
import { Badge, formatDate, PageHeader } from '../../ui/misc';
import { useReinviteUser, useRemoveUser, useUpdateUser, useUsers } from './hooks';
import { InviteDialog } from './invite-dialog';
import { ROLE_LABELS } from './roles';

const COLUMNS: ListColumn[] = [
  { label: 'User' },
  { label: 'Role' },
  { label: 'Status' },
  { label: '2FA', className: 'hide-sm' },
  { label: 'Last sign-in', className: 'hide-sm' },
  { label: 'Actions', hidden: true },
];

interface RowProps {
  user: User;
  /** Whether the signed-in user may change this row (not their own: another administrator does that). */
  writable: boolean;
  onRemove: () => void;
}

function UserRow({ user, writable, onRemove }: RowProps) {
  const update = useUpdateUser();
  const reinvite = useReinviteUser();
  const who = user.name || user.email;
  return (
    <tr>
      <td className="break">
        <strong>{user.name ?? '—'}</strong>
        <div className="muted">{user.email}</div>
      </td>
      <td>
        {writable ? (
          <select
            className="inline-select"
            aria-label={`Role of ${who}`}
            value={user.role}
            onChange={(e) => update.mutate({ userId: user.id, role: e.target.value as UserRole })}
          >
            {USER_ROLES.map((r) => (
              <option key={r} value={r}>
                {ROLE_LABELS[r]}
              </option>
            ))}
          </select>
        ) : (
          ROLE_LABELS[user.role]
        )}
        {update.isError && (
          <p className="field-error" role="alert">
            {errorMessage(update.error)}
          </p>
        )}
      </td>
      <td>
        <Badge>{user.status}</Badge>
      </td>
      <td className="hide-sm">{user.totp_enabled ? 'On' : 'Off'}</td>
      <td className="hide-sm nowrap">{formatDate(user.last_sign_in_at)}</td>
      <td>
        {writable && (
          <div className="row-actions">
            {user.status === 'INVITED' && (
              <Button
                className="btn-small"
                busy={reinvite.isPending}
                onClick={() => reinvite.mutate(user.id)}
                aria-label={`Re-invite ${who}`}
              >
                Re-invite
              </Button>
            )}
            {user.status !== 'INVITED' && (
              <Button
                className="btn-small"
                onClick={() => update.mutate({ userId: user.id, active: user.status !== 'ACTIVE' })}
                aria-label={`${user.status === 'ACTIVE' ? 'Deactivate' : 'Activate'} ${who}`}
              >
                {user.status === 'ACTIVE' ? 'Deactivate' : 'Activate'}
              </Button>
            )}
            <Button className="btn-small" variant="danger" onClick={onRemove} aria-label={`Remove ${who}`}>
              Remove
            </Button>
          </div>
        )}
      </td>
    </tr>
  );
}

export default function TeamPage() {
  const session = useSession().data;
  const writable = can(session, 'users:write');
  const users = useUsers();
  const remove = useRemoveUser();
  const [inviting, setInviting] = useState(false);
  const [removing, setRemoving] = useState<User | null>(null);
  const rows = users.data ?? [];
  return (
    <>
      <PageHeader
        title="Team"
        description="Who can sign in to the portal, and what their role lets them do."
        actions={
          writable && (
            <Button variant="primary" onClick={() => setInviting(true)}>
              Invite teammate
            </Button>
          )
        }
      />
      {remove.isSuccess && <FormMessage tone="success">The user was removed.</FormMessage>}
      <ListSection
        {...queryState(users)}
        loadingLabel="Loading the team…"
        empty={rows.length === 0}
        emptyTitle="No users"
        table={{ label: 'Team', columns: COLUMNS }}
      >
        {rows.map((u) => (
          <UserRow
            key={u.id}
            user={u}
            writable={writable && u.id !== session?.user.id}
            onRemove={() => setRemoving(u)}
          />
        ))}
      </ListSection>
      <InviteDialog open={inviting} onClose={() => setInviting(false)} />
      <ConfirmDialog
        open={removing !== null}
        title={`Remove ${removing?.email ?? ''}?`}
        confirmLabel="Remove user"
        busy={remove.isPending}
        error={remove.isError ? errorMessage(remove.error) : undefined}
        onClose={() => setRemoving(null)}
        onConfirm={() => removing && remove.mutate(removing.id, { onSuccess: () => setRemoving(null) })}
      >
        They are signed out at once and can no longer sign in.
      </ConfirmDialog>
    </>
  );
}
