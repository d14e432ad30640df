import type { AccessRole } from '@platform/contracts';
import type { OwnerSessionRow } from './identity.repository';

/** The access user of a live owner console session, as read on this request (role and access are current). */
export interface SignedInOwner {
  sessionId: string;
  csrfToken: string;
  ownerUserId: string;
  partnerId: string;
  partnerName: string;
  companyId: string;
  email: string;
  name: string | null;
  role: AccessRole;
}

export const signedInOwnerOf = (row: OwnerSessionRow): SignedInOwner => ({
  sessionId: row.session_id,
  csrfToken: row.csrf_token,
  ownerUserId: row.owner_user_id,
  partnerId: row.partner_id,
  partnerName: row.partner_name,
  companyId: row.company_id,
  email: row.email,
  name: row.name,
  role: row.role as AccessRole,
});

/** The owner as the partner's audit log names them. */
export const ownerActor = (owner: SignedInOwner) => ({
  type: 'OWNER' as const,
  id: owner.ownerUserId,
  label: owner.email,
});

/** Whom the owner's calls to the services act for: the customer's partner, keyed by the owner (owner:<id>). */
export const ownerCallAs = (owner: SignedInOwner) => ({
  partnerId: owner.partnerId,
  keyId: `owner:${owner.ownerUserId}`,
});
