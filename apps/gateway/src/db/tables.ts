import type { ColumnType, Generated } from 'kysely';
import type { OnboardingWidgets } from '@platform/contracts';
import type { MailQueueTable } from '@platform/mail';

export const GATEWAY_SCHEMA = 'gateway';
/** NOTIFY channel: payload is the prefix of a key whose cached record must be dropped. */
export const KEYS_CHANNEL = 'gateway_keys';
/**
 * NOTIFY channel, sent by triggers on sessions, users and partners (migration 2026_11_27): the
 * payload is the id of the session, user or partner whose cached sessions must be dropped, or
 * `*` for all of them (a TRUNCATE).
 */
export const SESSIONS_CHANNEL = 'gateway_sessions';
export const ALL_SESSIONS = '*';

export interface PartnersTable {
  id: Generated<string>;
  name: string;
  required_fields: ColumnType<string[], string[] | undefined, string[]>;
  /** Product and price list codes (billing-svc's catalogue) for domains created without them. */
  default_product: ColumnType<string | null, string | null | undefined, string | null>;
  default_price_list: ColumnType<string | null, string | null | undefined, string | null>;
  /** Every user of the partner must sign in with TOTP (enrolling at the next sign-in). */
  totp_required: ColumnType<boolean, boolean | undefined, boolean>;
  /** The registration and scan widgets' settings (OnboardingWidgets), written whole. */
  onboarding_widgets: ColumnType<OnboardingWidgets, string | undefined, string>;
  created_at: ColumnType<Date, never, never>;
}

export interface ApiKeysTable {
  id: Generated<string>;
  partner_id: string;
  name: string | null;
  /** Non-secret, readable part of the key (pdm_live_<id>), used for lookup. */
  prefix: string;
  /** SHA-256 of the full key; the key itself is never stored. */
  secret_hash: Buffer;
  permissions: string[];
  allowed_ip: string | null;
  expires_at: Date | null;
  revoked_at: Date | null;
  created_by_type: ColumnType<'USER' | 'OPERATOR' | null, 'USER' | 'OPERATOR' | null | undefined, never>;
  created_by_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** Recorded in batches off the request path (see LastUsedRecorder), so it may lag by seconds. */
  last_used_at: ColumnType<Date | null, never, Date | null>;
  /** The key that replaced this one by a roll; this one stops at its expires_at (the overlap's end). */
  rolled_to: ColumnType<string | null, never, string | null>;
  created_at: ColumnType<Date, never, never>;
}

export type UserStatus = 'INVITED' | 'ACTIVE' | 'DEACTIVATED';
export type SessionStage = 'ACTIVE' | 'TOTP_REQUIRED' | 'TOTP_ENROLMENT_REQUIRED';
export type SessionAudience = 'PARTNER' | 'OWNER';

/** A person with access to a customer's account console (the company of a partner's domains). */
export interface OwnerUsersTable {
  id: Generated<string>;
  partner_id: string;
  /** domains-svc's instance_company_id. */
  company_id: string;
  /** Lower case. */
  email: string;
  name: string | null;
  role: string;
  access: ColumnType<boolean, boolean | undefined, boolean>;
  last_sign_in_at: ColumnType<Date | null, never, Date | null>;
  created_at: ColumnType<Date, Date | undefined, never>;
}

/** A portal user of one partner; an e-mail address may be a user of several partners. */
export interface UsersTable {
  id: Generated<string>;
  partner_id: string;
  /** Lower case. */
  email: string;
  name: string | null;
  role: string;
  status: ColumnType<UserStatus, UserStatus | undefined, UserStatus>;
  /** The TOTP secret (base32), encrypted with TOTP_ENCRYPTION_KEY when one is set (see totp-secrets.ts). */
  totp_secret: ColumnType<string | null, string | null | undefined, string | null>;
  /** A secret offered by POST /portal/auth/totp, until PUT confirms it with a code. */
  totp_pending_secret: ColumnType<string | null, string | null | undefined, string | null>;
  totp_enabled_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** The 30 s step of the last code accepted: a code is never accepted twice (RFC 6238 section 5.2). */
  totp_last_step: ColumnType<number | null, never, number | null>;
  last_sign_in_at: ColumnType<Date | null, never, Date | null>;
  created_at: ColumnType<Date, Date | undefined, never>;
}

/** Magic-link tokens: only their SHA-256 is kept. */
export interface SignInTokensTable {
  token_hash: Buffer;
  /** Whose link: a partner's portal user, or (owner_user_id) a customer's access user; exactly one. */
  user_id: ColumnType<string | null, string | null | undefined, never>;
  owner_user_id: ColumnType<string | null, string | null | undefined, never>;
  expires_at: Date;
  used_at: ColumnType<Date | null, never, Date | null>;
  created_at: ColumnType<Date, Date | undefined, never>;
}

/** Portal sessions: the cookie holds a random id, only its SHA-256 is kept. */
export interface SessionsTable {
  id: Generated<string>;
  token_hash: Buffer;
  /** PARTNER: a portal user's (user_id); OWNER: a customer's access user's (owner_user_id), for the owner console only. */
  audience: ColumnType<SessionAudience, SessionAudience | undefined, never>;
  user_id: ColumnType<string | null, string | null | undefined, never>;
  owner_user_id: ColumnType<string | null, string | null | undefined, never>;
  stage: SessionStage;
  csrf_token: string;
  last_seen_at: Date;
  expires_at: Date;
  created_at: ColumnType<Date, Date | undefined, never>;
}

export interface RecoveryCodesTable {
  user_id: string;
  code_hash: Buffer;
  used_at: ColumnType<Date | null, never, Date | null>;
}

export interface AuditEventsTable {
  id: Generated<string>;
  partner_id: string;
  kind: string;
  actor_type: 'USER' | 'API_KEY' | 'OPERATOR' | 'OWNER';
  actor_id: string | null;
  actor_label: string;
  target_type: string | null;
  target_id: string | null;
  details: ColumnType<Record<string, unknown>, string | undefined, never>;
  created_at: ColumnType<Date, Date | undefined, never>;
}

export interface GatewayDb {
  partners: PartnersTable;
  api_keys: ApiKeysTable;
  users: UsersTable;
  sign_in_tokens: SignInTokensTable;
  sessions: SessionsTable;
  recovery_codes: RecoveryCodesTable;
  audit_events: AuditEventsTable;
  owner_users: OwnerUsersTable;
  mail_queue: MailQueueTable;
}
