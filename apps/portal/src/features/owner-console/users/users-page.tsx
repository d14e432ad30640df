// Users: who may use the account console, with their role and access. Admins invite, change roles and
// access, and remove (owners alone touch the owner role); the last owner with access cannot be demoted,
// turned off or removed, and the screen says so. VIEWERs see the list read-only.
import { ACCESS_ROLES, type AccessRole, type AccessUser } from '@platform/contracts';
import { useState } from 'react';
import { queryState } from '../../../api/query-state';
import { Button } from '../../../ui/button';
import { ConfirmDialog } from '../../../ui/confirm-dialog';
import { FormMessage } from '../../../ui/field';
import { ListSection, type ListColumn } from '../../../ui/list-section';
import { PageHeader } from '../../../ui/misc';
import { useOwnerAccess } from '../access';
import { ownerErrorMessage } from '../api';
import { inviteRoute, useOwnerUsers, useRemoveOwnerUser, userChangeError } from './hooks';
import { InviteDialog } from './invite-dialog';
import { UserRow } from './user-row';

const COLUMNS: ListColumn[] = [
  { label: 'User' },
  { label: 'Role' },
  { label: 'Access' },
  { label: 'Last sign-in' },
  { label: 'Actions', hidden: true },
];

/** The roles this user may give, and whether they may change a given user at all (owners only touch owners). */
function usePowers() {
  const { role, may, session } = useOwnerAccess();
  const writable = may(inviteRoute);
  const roles: AccessRole[] = ACCESS_ROLES.filter((r) => role === 'OWNER' || r !== 'OWNER');
  const canChange = (u: AccessUser) => writable && (role === 'OWNER' || u.role !== 'OWNER');
  return { writable, roles, canChange, selfId: session.user.id };
}

/** Remove, confirmed: their sessions end at once; the last owner's 409 is said in the dialog. */
function RemoveDialog(props: {
  user: AccessUser | null;
  self: boolean;
  remove: ReturnType<typeof useRemoveOwnerUser>;
  onClose: () => void;
}) {
  const { user, self, remove, onClose } = props;
  return (
    <ConfirmDialog
      open={user !== null}
      title={self ? 'Remove yourself from the account?' : `Remove ${user?.email ?? ''}?`}
      confirmLabel={self ? 'Remove me' : 'Remove user'}
      busy={remove.isPending}
      error={remove.isError ? userChangeError(remove.error, ownerErrorMessage, self) : undefined}
      onClose={onClose}
      onConfirm={() => user && remove.mutate(user.id, { onSuccess: onClose })}
    >
      {self
        ? 'You are signed out at once and can no longer sign in to this account.'
        : 'They are signed out at once and can no longer sign in to this account.'}
    </ConfirmDialog>
  );
}

export default function UsersPage() {
  const powers = usePowers();
  const users = useOwnerUsers();
  const remove = useRemoveOwnerUser();
  const [inviting, setInviting] = useState(false);
  const [removing, setRemoving] = useState<AccessUser | null>(null);
  const [problem, setProblem] = useState('');
  const rows = users.data ?? [];
  const removingSelf = removing?.id === powers.selfId;
  return (
    <>
      <PageHeader
        title="Users"
        description="Who can sign in to this account console, for all of your websites, and what they may do."
        actions={
          powers.writable && (
            <Button variant="primary" onClick={() => setInviting(true)}>
              Invite user
            </Button>
          )
        }
      />
      {!powers.writable && (
        <p className="read-only-note">You can see who has access. Ask an admin or the owner to change it.</p>
      )}
      {problem && <FormMessage tone="error">{problem}</FormMessage>}
      {remove.isSuccess && <FormMessage tone="success">The user was removed. Their sessions ended.</FormMessage>}
      <div className="stack-sm">
        <ListSection
          {...queryState(users)}
          loadingLabel="Loading users…"
          empty={rows.length === 0}
          emptyTitle="No users"
          table={{ label: 'Users', columns: COLUMNS }}
        >
          {rows.map((u) => (
            <UserRow
              key={u.id}
              user={u}
              self={u.id === powers.selfId}
              editable={powers.canChange(u)}
              roles={powers.roles}
              onProblem={setProblem}
              onRemove={() => (setProblem(''), remove.reset(), setRemoving(u))}
            />
          ))}
        </ListSection>
      </div>
      <InviteDialog open={inviting} roles={powers.roles} onClose={() => setInviting(false)} />
      <RemoveDialog user={removing} self={removingSelf} remove={remove} onClose={() => setRemoving(null)} />
    </>
  );
}
