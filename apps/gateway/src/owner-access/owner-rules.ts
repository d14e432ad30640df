import type { AccessRole } from '@platform/contracts';
import { AppError } from '@platform/http';

/** What a change does to an access user: a new role and/or access, or their removal. */
export type AccessChange = { role?: AccessRole; access?: boolean } | 'remove';

/** Whether the change takes the user out of the account's OWNERs with access. */
const takesOwnerAway = (change: AccessChange) =>
  change === 'remove' || (change.role !== undefined && change.role !== 'OWNER') || change.access === false;

/**
 * The account keeps an OWNER with access: 409 ACCESS_USER.LAST_OWNER when the user is the only one
 * (`owners`, locked by the caller's transaction) and the change demotes, turns off or removes them.
 */
export function assertKeepsAnOwner(owners: readonly string[], userId: string, change: AccessChange): void {
  if (owners.length === 1 && owners[0] === userId && takesOwnerAway(change))
    throw new AppError('ACCESS_USER.LAST_OWNER');
}

/**
 * Only an OWNER may grant, take or remove OWNER: in the owner console (`actorRole` set) an ADMIN
 * who invites or promotes to OWNER, or changes or removes an OWNER, is refused 403. The partner
 * (no actorRole) manages every role.
 */
export function assertMayTouchOwner(
  actorRole: AccessRole | undefined,
  user: { role?: AccessRole; newRole?: AccessRole },
): void {
  if (actorRole === undefined || actorRole === 'OWNER') return;
  if (user.role === 'OWNER' || user.newRole === 'OWNER')
    throw new AppError('AUTH.FORBIDDEN', 'Only an OWNER may grant, change or remove the OWNER role.', {
      required: 'OWNER',
    });
}
