import { sql, type Kysely } from '@platform/db';
import type { GatewayDb, SessionStage, UserStatus } from '../db/tables';

export interface UserRow {
  id: string;
  partner_id: string;
  email: string;
  name: string | null;
  role: string;
  status: UserStatus;
  totp_secret: string | null;
  totp_pending_secret: string | null;
  totp_enabled_at: Date | null;
  totp_last_step: number | null;
  last_sign_in_at: Date | null;
  created_at: Date;
}

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

/** All SQL on users, sign_in_tokens, sessions and recovery_codes. */
export class IdentityRepository {
  constructor(private readonly db: Kysely<GatewayDb>) {}

  insertUser(values: { partner_id: string; email: string; name: string | null; role: string }): Promise<UserRow> {
    return this.db.insertInto('users').values(values).returningAll().executeTakeFirstOrThrow();
  }

  findUser(partnerId: string, userId: string): Promise<UserRow | undefined> {
    return this.db
      .selectFrom('users')
      .selectAll()
      .where('partner_id', '=', partnerId)
      .where('id', '=', userId)
      .executeTakeFirst();
  }

  findUserByEmail(partnerId: string, email: string): Promise<UserRow | undefined> {
    return this.db
      .selectFrom('users')
      .selectAll()
      .where('partner_id', '=', partnerId)
      .where('email', '=', email)
      .executeTakeFirst();
  }

  /** Every user the address is, one per partner, that may sign in. */
  usersByEmail(email: string): Promise<UserRow[]> {
    return this.db
      .selectFrom('users')
      .selectAll()
      .where('email', '=', email)
      .where('status', '!=', 'DEACTIVATED')
      .orderBy('created_at')
      .execute();
  }

  listUsers(partnerId: string, offset: number, limit: number): Promise<UserRow[]> {
    return this.db
      .selectFrom('users')
      .selectAll()
      .where('partner_id', '=', partnerId)
      .orderBy('created_at')
      .orderBy('id')
      .offset(offset)
      .limit(limit)
      .execute();
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

  updateUser(
    userId: string,
    values: Partial<{
      name: string | null;
      role: string;
      status: UserStatus;
      totp_secret: string | null;
      totp_pending_secret: string | null;
      totp_enabled_at: Date | null;
      totp_last_step: number | null;
      last_sign_in_at: Date;
    }>,
  ): Promise<UserRow | undefined> {
    return this.db.updateTable('users').set(values).where('id', '=', userId).returningAll().executeTakeFirst();
  }

  deleteUser(userId: string): Promise<UserRow | undefined> {
    return this.db.deleteFrom('users').where('id', '=', userId).returningAll().executeTakeFirst();
  }

  async insertSignInToken(values: { token_hash: Buffer; user_id: string; expires_at: Date; created_at: Date }) {
    await this.db.insertInto('sign_in_tokens').values(values).execute();
  }

  /** Marks the token used, if it is unused and unexpired at `now`: its user, else undefined. Single use by the UPDATE. */
  async redeemSignInToken(tokenHash: Buffer, now: Date): Promise<string | undefined> {
    const row = await this.db
      .updateTable('sign_in_tokens')
      .set({ used_at: now })
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .returning('user_id')
      .executeTakeFirst();
    return row?.user_id;
  }

  async insertSession(values: {
    token_hash: Buffer;
    user_id: string;
    stage: SessionStage;
    csrf_token: string;
    last_seen_at: Date;
    expires_at: Date;
    created_at: Date;
  }) {
    await this.db.insertInto('sessions').values(values).execute();
  }

  /**
   * The session of the cookie when it is live at `now` (not past its absolute expiry, seen within
   * the idle timeout, its user not deactivated), with the user and partner as they are now; its
   * last_seen_at moves to now in the same statement.
   */
  async touchSession(tokenHash: Buffer, now: Date, idleMs: number): Promise<SessionRow | undefined> {
    const idleSince = new Date(now.getTime() - idleMs);
    const { rows } = await sql<SessionRow>`
      UPDATE sessions s SET last_seen_at = ${now}
      FROM users u JOIN partners p ON p.id = u.partner_id
      WHERE s.token_hash = ${tokenHash} AND u.id = s.user_id AND u.status <> 'DEACTIVATED'
        AND s.expires_at > ${now} AND s.last_seen_at > ${idleSince}
      RETURNING s.id AS session_id, s.stage, s.csrf_token, u.id AS user_id, u.partner_id, u.email, u.name, u.role,
        (u.totp_enabled_at IS NOT NULL) AS totp_enabled, p.name AS partner_name, p.totp_required,
        p.required_fields, p.default_product, p.default_price_list`.execute(this.db);
    return rows[0];
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

  async deleteSession(sessionId: string) {
    await this.db.deleteFrom('sessions').where('id', '=', sessionId).execute();
  }

  /** Ends every session of the user at once (role change, deactivation, removal). */
  async deleteSessionsOf(userId: string) {
    await this.db.deleteFrom('sessions').where('user_id', '=', userId).execute();
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

  /** Spends an unused recovery code of the user; false when it is not one (or was used). */
  async useRecoveryCode(userId: string, hash: Buffer, now: Date): Promise<boolean> {
    const row = await this.db
      .updateTable('recovery_codes')
      .set({ used_at: now })
      .where('user_id', '=', userId)
      .where('code_hash', '=', hash)
      .where('used_at', 'is', null)
      .returning('user_id')
      .executeTakeFirst();
    return row !== undefined;
  }
}
