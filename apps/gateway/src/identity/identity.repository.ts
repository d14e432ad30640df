import type { Insertable, RawBuilder, Selectable, Updateable } from 'kysely';
import { sql, type Kysely } from '@platform/db';
import type {
  GatewayDb,
  SessionAudience,
  SessionsTable,
  SessionStage,
  SignInTokensTable,
  UsersTable,
} from '../db/tables';

export type UserRow = Selectable<UsersTable>;

/** Which user: by id, or by (lower-case) e-mail address, within one partner. */
export type UserKey = { id: string } | { email: string };

/** A live session with its user and partner as they are now (read on every request). */
export interface SessionRow {
  session_id: string;
  stage: SessionStage;
  csrf_token: string;
  user_id: string;
  partner_id: string;
  email: string;
  name: string | null;
  role: string;
  totp_enabled: boolean;
  partner_name: string;
  totp_required: boolean;
  required_fields: string[];
  default_product: string | null;
  default_price_list: string | null;
}

/** How stale a session's last_seen_at may get before a request moves it: idle time-outs are exact to the minute. */
export const SESSION_TOUCH_MS = 60_000;

/** A live owner console session with its access user and partner as they are now. */
export interface OwnerSessionRow {
  session_id: string;
  csrf_token: string;
  owner_user_id: string;
  partner_id: string;
  company_id: string;
  email: string;
  name: string | null;
  role: string;
  partner_name: string;
}

/** A session as touchSession reads it: with its expiry and last_seen_at. */
export type TouchedSession = SessionRow & { last_seen_at: Date; expires_at: Date };

/** All SQL on users, sign_in_tokens, sessions and recovery_codes. */
export class IdentityRepository {
  constructor(private readonly db: Kysely<GatewayDb>) {}

  insertUser(values: Insertable<UsersTable>): Promise<UserRow> {
    return this.db.insertInto('users').values(values).returningAll().executeTakeFirstOrThrow();
  }

  /** Every read of users starts here: all columns, oldest first. */
  private users() {
    return this.db.selectFrom('users').selectAll().orderBy('created_at').orderBy('id');
  }

  findUser(partnerId: string, user: UserKey): Promise<UserRow | undefined> {
    const query = this.users().where('partner_id', '=', partnerId);
    return ('id' in user ? query.where('id', '=', user.id) : query.where('email', '=', user.email)).executeTakeFirst();
  }

  /** Every user the address is, one per partner, that may sign in. */
  usersByEmail(email: string): Promise<UserRow[]> {
    return this.users().where('email', '=', email).where('status', '!=', 'DEACTIVATED').execute();
  }

  listUsers(partnerId: string, offset: number, limit: number): Promise<UserRow[]> {
    return this.users().where('partner_id', '=', partnerId).offset(offset).limit(limit).execute();
  }

  /** Locks the partner's active administrators (FOR UPDATE), so two demotions cannot both pass the last-one check. */
  async activeAdministrators(partnerId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('users')
      .select('id')
      .where('partner_id', '=', partnerId)
      .where('role', '=', 'ADMINISTRATOR')
      .where('status', '!=', 'DEACTIVATED')
      .forUpdate()
      .execute();
    return rows.map((r) => r.id);
  }

  updateUser(userId: string, values: Updateable<UsersTable>): Promise<UserRow | undefined> {
    return this.db.updateTable('users').set(values).where('id', '=', userId).returningAll().executeTakeFirst();
  }

  deleteUser(userId: string): Promise<UserRow | undefined> {
    return this.db.deleteFrom('users').where('id', '=', userId).returningAll().executeTakeFirst();
  }

  async insertSignInToken(values: Insertable<SignInTokensTable>) {
    await this.db.insertInto('sign_in_tokens').values(values).execute();
  }

  /**
   * Marks the token used, if it is unused and unexpired at `now` and a link of this audience (a
   * portal user's, or an access user's for the owner console): its user, else undefined.
   */
  redeemSignInToken(tokenHash: Buffer, now: Date, audience: SessionAudience = 'PARTNER'): Promise<string | undefined> {
    const subject = audience === 'PARTNER' ? 'user_id' : 'owner_user_id';
    return this.spend(
      'sign_in_tokens',
      sql`token_hash = ${tokenHash} AND expires_at > ${now} AND ${sql.ref(subject)} IS NOT NULL`,
      now,
      subject,
    );
  }

  /** Spends an unused recovery code of the user: the user, or undefined when it is not one (or was used). */
  useRecoveryCode(userId: string, hash: Buffer, now: Date): Promise<string | undefined> {
    return this.spend('recovery_codes', sql`user_id = ${userId} AND code_hash = ${hash}`, now);
  }

  /** Sign-in tokens and recovery codes work once: the UPDATE that marks one used is the only one that finds it unused. */
  private async spend(
    table: 'sign_in_tokens' | 'recovery_codes',
    which: RawBuilder<unknown>,
    now: Date,
    subject: 'user_id' | 'owner_user_id' = 'user_id',
  ) {
    const { rows } = await sql<{ subject: string }>`
      UPDATE ${sql.table(table)} SET used_at = ${now} WHERE ${which} AND used_at IS NULL
      RETURNING ${sql.ref(subject)} AS subject`.execute(this.db);
    return rows[0]?.subject;
  }

  async insertSession(values: Insertable<SessionsTable>) {
    await this.db.insertInto('sessions').values(values).execute();
  }

  /**
   * The session of the cookie when it is live at `now` (not past its absolute expiry, seen within
   * the idle timeout, its user not deactivated), with the user and partner as they are now. Its
   * last_seen_at moves to now only when older than `touchMs`: a read per request, a write per
   * interval (an UPDATE on every call would queue a user's concurrent calls on the session's row).
   * Answers the session's expiry and its last_seen_at after this call (the older one when another
   * request moved it first), which bound how long a copy of the answer may be used.
   */
  async touchSession(
    tokenHash: Buffer,
    now: Date,
    idleMs: number,
    touchMs: number,
  ): Promise<TouchedSession | undefined> {
    const idleSince = new Date(now.getTime() - idleMs);
    const { rows } = await sql<TouchedSession>`
      SELECT s.id AS session_id, s.stage, s.csrf_token, s.last_seen_at, s.expires_at, u.id AS user_id, u.partner_id,
        u.email, u.name, u.role, (u.totp_enabled_at IS NOT NULL) AS totp_enabled, p.name AS partner_name,
        p.totp_required, p.required_fields, p.default_product, p.default_price_list
      FROM sessions s JOIN users u ON u.id = s.user_id JOIN partners p ON p.id = u.partner_id
      WHERE s.token_hash = ${tokenHash} AND s.audience = 'PARTNER' AND u.status <> 'DEACTIVATED'
        AND s.expires_at > ${now} AND s.last_seen_at > ${idleSince}`.execute(this.db);
    const row = rows[0];
    if (!row) return undefined;
    // The last_seen_at after this call (the older one when another request moved it first).
    return (await this.touch(row.session_id, row.last_seen_at, now, touchMs)) ? { ...row, last_seen_at: now } : row;
  }

  /** touchSession for the owner console: a live OWNER session whose access user still has access. */
  async touchOwnerSession(
    tokenHash: Buffer,
    now: Date,
    idleMs: number,
    touchMs: number,
  ): Promise<OwnerSessionRow | undefined> {
    const idleSince = new Date(now.getTime() - idleMs);
    const { rows } = await sql<OwnerSessionRow & { last_seen_at: Date }>`
      SELECT s.id AS session_id, s.csrf_token, s.last_seen_at, o.id AS owner_user_id, o.partner_id, o.company_id,
        o.email, o.name, o.role, p.name AS partner_name
      FROM sessions s JOIN owner_users o ON o.id = s.owner_user_id JOIN partners p ON p.id = o.partner_id
      WHERE s.token_hash = ${tokenHash} AND s.audience = 'OWNER' AND o.access
        AND s.expires_at > ${now} AND s.last_seen_at > ${idleSince}`.execute(this.db);
    const row = rows[0];
    if (!row) return undefined;
    await this.touch(row.session_id, row.last_seen_at, now, touchMs);
    const { last_seen_at: _seen, ...session } = row;
    return session;
  }

  /** Moves a session's last_seen_at to now when it is older than touchMs (one write per interval, not per call); true when this call moved it. */
  private async touch(sessionId: string, lastSeenAt: Date, now: Date, touchMs: number): Promise<boolean> {
    const touchBefore = new Date(now.getTime() - touchMs);
    if (lastSeenAt >= touchBefore) return false;
    const touched = await this.db
      .updateTable('sessions')
      .set({ last_seen_at: now })
      .where('id', '=', sessionId)
      .where('last_seen_at', '<', touchBefore)
      .executeTakeFirst();
    return touched.numUpdatedRows > 0n;
  }

  /** Records the step of an accepted code; false when a code of this step (or a later one) was accepted before: a replay. */
  async spendTotpStep(userId: string, step: number): Promise<boolean> {
    const row = await this.db
      .updateTable('users')
      .set({ totp_last_step: step })
      .where('id', '=', userId)
      .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  }

  async setSessionStage(sessionId: string, stage: SessionStage) {
    await this.db.updateTable('sessions').set({ stage }).where('id', '=', sessionId).execute();
  }

  /** Ends one session (sign-out), or every session of a user at once (role change, deactivation, removal, access off). */
  async deleteSessions(which: { sessionId: string } | { userId: string } | { ownerUserId: string }) {
    const query = this.db.deleteFrom('sessions');
    await (
      'sessionId' in which
        ? query.where('id', '=', which.sessionId)
        : 'userId' in which
          ? query.where('user_id', '=', which.userId)
          : query.where('owner_user_id', '=', which.ownerUserId)
    ).execute();
  }

  /** Deletes ended sessions and sign-in tokens expired a day ago (kept that long to answer a late click the same way). */
  async pruneEnded(now: Date, idleMs: number): Promise<number> {
    const sessions = await this.db
      .deleteFrom('sessions')
      .where((eb) => eb.or([eb('expires_at', '<=', now), eb('last_seen_at', '<=', new Date(now.getTime() - idleMs))]))
      .executeTakeFirst();
    const tokens = await this.db
      .deleteFrom('sign_in_tokens')
      .where('expires_at', '<', new Date(now.getTime() - 24 * 3_600_000))
      .executeTakeFirst();
    return Number(sessions.numDeletedRows) + Number(tokens.numDeletedRows);
  }

  async replaceRecoveryCodes(userId: string, hashes: Buffer[]) {
    await this.db.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
    if (hashes.length > 0)
      await this.db
        .insertInto('recovery_codes')
        .values(hashes.map((code_hash) => ({ user_id: userId, code_hash })))
        .execute();
  }
}
