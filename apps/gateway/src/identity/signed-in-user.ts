import { ROLE_PERMISSIONS, type Session, type UserRole } from '@platform/contracts';
import type { SessionRow } from './identity.repository';
import { partnerDefaults } from '../settings/partner-defaults';

/** The user of a live session, as read on this request (role and status are current). */
export interface SignedInUser {
  sessionId: string;
  stage: Session['stage'];
  csrfToken: string;
  userId: string;
  partnerId: string;
  email: string;
  name: string | null;
  role: UserRole;
  totpEnabled: boolean;
  partnerName: string;
  totpRequired: boolean;
  permissions: readonly string[];
  /** The partner's settings, carried to services as a key's are. */
  requiredFields: string[];
  defaults?: { product?: string; priceList?: string };
}

export const signedInUserOf = (row: SessionRow): SignedInUser => ({
  sessionId: row.session_id,
  stage: row.stage,
  csrfToken: row.csrf_token,
  userId: row.user_id,
  partnerId: row.partner_id,
  email: row.email,
  name: row.name,
  role: row.role as UserRole,
  totpEnabled: row.totp_enabled,
  partnerName: row.partner_name,
  totpRequired: row.totp_required,
  permissions: ROLE_PERMISSIONS[row.role as UserRole] ?? [],
  requiredFields: row.required_fields,
  ...partnerDefaults(row),
});

/** The Session answer of the contract. */
export const sessionView = (u: SignedInUser): Session => ({
  stage: u.stage,
  user: { id: u.userId, email: u.email, name: u.name, role: u.role, totp_enabled: u.totpEnabled },
  partner: { id: u.partnerId, name: u.partnerName, totp_required: u.totpRequired },
  permissions: [...u.permissions],
  csrf_token: u.csrfToken,
});

/** The audit log's actor for a user. */
export const userActor = (u: Pick<SignedInUser, 'userId' | 'email'>) => ({
  type: 'USER' as const,
  id: u.userId,
  label: u.email,
});
