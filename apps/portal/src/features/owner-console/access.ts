// Who may do what in the owner console: the route's own ownerRole (libs/contracts) against the signed-in
// access user's role, so a VIEWER sees read-only screens instead of meeting the API's 403.
import { accessRoleAtLeast, type AccessRole, type OwnerSession } from '@platform/contracts';
import { useParams } from 'react-router';
import { useOwnerSession } from './session';

export const ROLE_LABELS: Record<AccessRole, string> = { OWNER: 'Owner', ADMIN: 'Admin', VIEWER: 'Viewer' };
export const ROLE_HINTS: Record<AccessRole, string> = {
  OWNER: 'everything, owners included',
  ADMIN: 'changes settings and users',
  VIEWER: 'looks, changes nothing',
};

export type ConsoleDomain = OwnerSession['domains'][number];

/** The signed-in owner's session (the guard shows the console only with one) and whether a route is theirs to call. */
export function useOwnerAccess() {
  const session = useOwnerSession().data!;
  const may = (route: { ownerRole: AccessRole }) => accessRoleAtLeast(session.user.role, route.ownerRole);
  return { session, role: session.user.role, may };
}

/** The domain of the address (/owner/domains/:domainId/...), when it is one of the session's; else undefined. */
export function useConsoleDomain(): ConsoleDomain | undefined {
  const { domainId } = useParams();
  return useOwnerAccess().session.domains.find((d) => d.id === domainId);
}

/** The same inside a section (the domain layout renders sections for a known domain only). */
export const useSectionDomain = (): ConsoleDomain => useConsoleDomain()!;
