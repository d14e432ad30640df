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
