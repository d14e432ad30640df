import type { Coordination } from '@platform/coordination';
import { inTransaction, outsideSharedTransaction, type Kysely } from '@platform/db';
import { enqueueMail } from '@platform/mail';
import { AppError } from '@platform/http';
import type { Logger } from '@platform/observability';
import type { GatewayDb, SessionStage } from '../db/tables';
import { AuditRepository } from '../audit/audit.repository';
import { clientAddressKey } from '../domain/failed-auth-throttle';
import { IdentityRepository, SESSION_TOUCH_MS, type UserRow } from './identity.repository';
import { newToken, sha256, TotpSecretBox } from './secrets';
import { OWNER_SIGN_IN_PAGE, PARTNER_SIGN_IN_PAGE, signInMail, signInUrl } from './sign-in-mail';
import { OwnerSessions } from './owner-sessions';
import { dropSessionsAtCommit, SessionCache, type LoadedSession } from './session-cache';
import { signedInUserOf, type SignedInUser } from './signed-in-user';
import { signInThrottles, type SignInThrottles } from './sign-in-throttles';
import { newRecoveryCodes, newTotpSecret, normaliseRecoveryCode, totpStepOf } from './totp';

export const SIGN_IN_LINK_TTL_MS = 15 * 60_000;
const THROTTLE_WINDOW_MS = 15 * 60_000;

export interface IdentitySettings {
  portalUrl: string;
  sessionIdleMs: number;
  sessionMaxAgeMs: number;
  linksPerEmail: number;
  linksPerClient: number;
  totpEncryptionKey?: string;
  /** With REDIS_URL: the sign-in throttles count for every gateway together. */
  coordination?: Coordination;
}

const rateLimited = (retryAfter: number, what: string) =>
  new AppError('RATE.LIMITED', `Too many sign-in links ${what}; retry after ${retryAfter} s.`, undefined, {
    'Retry-After': String(retryAfter),
  });

/**
 * Sign-in by e-mail link, server-side sessions and TOTP. Tokens and session ids are 32 random
 * bytes and only their SHA-256 is stored; every time comes from `now` (tests move it).
 */
export class IdentityService {
  private readonly throttles: SignInThrottles;
  readonly totpBox: TotpSecretBox;
  /** The owner console's sessions: the same tokens, sessions and time-outs, audience OWNER. */
  readonly owners: OwnerSessions;

  constructor(
    private readonly db: Kysely<GatewayDb>,
    private readonly settings: IdentitySettings,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
    /** The gateway's copies of resolved sessions; none (every request reads the database) in the admin CLI. */
    readonly sessions?: SessionCache,
  ) {
    this.throttles = signInThrottles(settings, THROTTLE_WINDOW_MS, now);
    this.totpBox = new TotpSecretBox(settings.totpEncryptionKey);
    this.owners = new OwnerSessions(db, settings, now);
  }

  /** The partner portal's links: one per partner the address is a user of (see requestLink). */
  requestSignInLink(email: string, ip: string): Promise<void> {
    return this.requestLink(email, ip, () => this.sendLinks(email));
  }

  /** Any "e-mail me a link" (portal's, owner console's; one throttle budget): `send` runs after the answer, so it tells nothing. */
  async requestLink(email: string, ip: string, send: () => Promise<void>): Promise<void> {
    const byClient = await this.throttles.perClient.hit(clientAddressKey(ip));
    if (byClient !== undefined) throw rateLimited(byClient, 'from this address');
    const byEmail = await this.throttles.perEmail.hit(email);
    if (byEmail !== undefined) throw rateLimited(byEmail, 'for this e-mail address');
    void send().catch((err: unknown) => this.logger.error({ err }, 'sign-in link not sent'));
  }

  private async sendLinks(email: string) {
    const users = await new IdentityRepository(this.db).usersByEmail(email);
    for (const user of users) await inTransaction(this.db, (trx) => this.sendLink(trx, user, false));
  }

  /**
   * A new single-use sign-in link (15 minutes, only its SHA-256 kept) for a portal user, or for a
   * customer's access user (the owner console's page), in the caller's transaction.
   */
  async newSignInLink(
    trx: Kysely<GatewayDb>,
    subject: { user_id: string } | { owner_user_id: string },
  ): Promise<{ url: string; expiresAt: Date }> {
    const token = newToken();
    const now = new Date(this.now());
    const expiresAt = new Date(now.getTime() + SIGN_IN_LINK_TTL_MS);
    await new IdentityRepository(trx).insertSignInToken({
      token_hash: sha256(token),
      ...subject,
      expires_at: expiresAt,
      created_at: now,
    });
    const page = 'owner_user_id' in subject ? OWNER_SIGN_IN_PAGE : PARTNER_SIGN_IN_PAGE;
    return { url: signInUrl(this.settings.portalUrl, token, page), expiresAt };
  }

  /** Makes a sign-in link for the user and queues its e-mail (in the caller's transaction); answers the link. */
  async sendLink(trx: Kysely<GatewayDb>, user: UserRow, invitation: boolean): Promise<string> {
    const { url } = await this.newSignInLink(trx, { user_id: user.id });
    const partner = await trx
      .selectFrom('partners')
      .select('name')
      .where('id', '=', user.partner_id)
      .executeTakeFirstOrThrow();
    await enqueueMail(trx, [
      signInMail({ partnerId: user.partner_id, partnerName: partner.name, to: user.email, url, invitation }),
    ]);
    return url;
  }

  /** Redeems a link's token (once, before it expires) for a new session; undefined when it is not redeemable. */
  async createSession(token: string): Promise<{ cookieToken: string; user: SignedInUser } | undefined> {
    const now = new Date(this.now());
    const cookieToken = newToken();
    const created = await inTransaction(this.db, async (trx) => {
      const repo = new IdentityRepository(trx);
      const userId = await repo.redeemSignInToken(sha256(token), now);
      if (!userId) return false;
      const user = await trx
        .selectFrom('users as u')
        .innerJoin('partners as p', 'p.id', 'u.partner_id')
        .select(['u.id', 'u.partner_id', 'u.email', 'u.status', 'u.totp_enabled_at', 'p.totp_required'])
        .where('u.id', '=', userId)
        .executeTakeFirst();
      if (!user || user.status === 'DEACTIVATED') return false;
      const stage: SessionStage = user.totp_enabled_at
        ? 'TOTP_REQUIRED'
        : user.totp_required
          ? 'TOTP_ENROLMENT_REQUIRED'
          : 'ACTIVE';
      await repo.updateUser(user.id, { status: 'ACTIVE', last_sign_in_at: now });
      await this.sessionsChanged(trx, user.id);
      await repo.insertSession({
        token_hash: sha256(cookieToken),
        user_id: user.id,
        stage,
        csrf_token: newToken(24),
        last_seen_at: now,
        expires_at: new Date(now.getTime() + this.settings.sessionMaxAgeMs),
        created_at: now,
      });
      await new AuditRepository(trx).record({
        partnerId: user.partner_id,
        kind: 'session.signed_in',
        actor: { type: 'USER', id: user.id, label: user.email },
        details: { stage },
        at: now,
      });
      return true;
    });
    if (!created) return undefined;
    const user = await this.resolveSession(cookieToken);
    return user && { cookieToken, user };
  }

  /**
   * The live session of a cookie's token, with its user as they are now; undefined when there is
   * none. Answered from this gateway's copy while it may be (see SessionCache), else read.
   */
  async resolveSession(cookieToken: string): Promise<SignedInUser | undefined> {
    const tokenHash = sha256(cookieToken);
    const now = this.now();
    if (!this.sessions) return (await this.readSession(tokenHash, now))?.user;
    return this.sessions.resolve(tokenHash, now, () => this.readSession(tokenHash, now));
  }

  /** Reads (and touches) the session; outside any request's transaction, so what is kept has committed. */
  private async readSession(tokenHash: Buffer, now: number): Promise<LoadedSession | undefined> {
    const sessions = new IdentityRepository(this.db);
    const idleMs = this.settings.sessionIdleMs;
    const row = await outsideSharedTransaction(() =>
      sessions.touchSession(tokenHash, new Date(now), idleMs, SESSION_TOUCH_MS),
    );
    return (
      row && { user: signedInUserOf(row), lastSeenAt: row.last_seen_at.getTime(), expiresAt: row.expires_at.getTime() }
    );
  }

  /**
   * After a write to a session, a user or a partner (its id): this gateway's copies go at commit.
   * Every gateway's go by the NOTIFY of the tables' triggers; this one's also before the writer answers.
   */
  sessionsChanged(db: Kysely<GatewayDb>, id: string): Promise<void> {
    const sessions = this.sessions;
    return sessions ? dropSessionsAtCommit(db, (changed) => sessions.invalidate(changed), id) : Promise.resolve();
  }

  /** Signs out: ends this session (a portal user's or an owner's). */
  async endSession(session: { sessionId: string }) {
    await new IdentityRepository(this.db).deleteSessions({ sessionId: session.sessionId });
    await this.sessionsChanged(this.db, session.sessionId);
  }

  /** The cookie's lifetime (its absolute expiry; the server also ends idle sessions). */
  readonly cookieMaxAgeSeconds = () => Math.floor(this.settings.sessionMaxAgeMs / 1000);

  private async throttleTotp(user: SignedInUser) {
    const retryAfter = await this.throttles.totpAttempts.hit(user.userId);
    if (retryAfter !== undefined)
      throw new AppError('RATE.LIMITED', `Too many codes tried; retry after ${retryAfter} s.`, undefined, {
        'Retry-After': String(retryAfter),
      });
  }

  /** Whether the code is the user's now and its step was not used before (a code works once). */
  private async codeAccepted(userId: string, sealedSecret: string, code: string): Promise<boolean> {
    const step = totpStepOf(this.totpBox.open(sealedSecret), code, this.now());
    return step !== undefined && (await new IdentityRepository(this.db).spendTotpStep(userId, step));
  }

  private async userRow(user: SignedInUser): Promise<UserRow> {
    const row = await new IdentityRepository(this.db).findUser(user.partnerId, { id: user.userId });
    if (!row) throw new AppError('AUTH.SESSION_REQUIRED');
    return row;
  }

  /** Completes a TOTP_REQUIRED session with a code or a recovery code (each recovery code works once). */
  async verifySessionTotp(user: SignedInUser, input: { code?: string; recovery_code?: string }) {
    if (user.stage !== 'TOTP_REQUIRED')
      throw new AppError('TOTP.INVALID_STATE', 'This session does not wait for a TOTP code.');
    await this.throttleTotp(user);
    const row = await this.userRow(user);
    if (!row.totp_secret) throw new AppError('TOTP.INVALID_STATE', 'Two-factor authentication is not enabled.');
    const repo = new IdentityRepository(this.db);
    const ok =
      input.code !== undefined
        ? await this.codeAccepted(row.id, row.totp_secret, input.code)
        : (await repo.useRecoveryCode(
            user.userId,
            sha256(normaliseRecoveryCode(input.recovery_code ?? '')),
            new Date(this.now()),
          )) !== undefined;
    if (!ok) throw new AppError('AUTH.TOTP');
    await repo.setSessionStage(user.sessionId, 'ACTIVE');
    await this.sessionsChanged(this.db, user.sessionId);
    return { ...user, stage: 'ACTIVE' as const };
  }

  /** A new secret to enrol (kept pending until confirmed with a code). */
  async startTotpEnrolment(user: SignedInUser) {
    if (user.stage === 'TOTP_REQUIRED' || user.totpEnabled)
      throw new AppError('TOTP.INVALID_STATE', 'Two-factor authentication is already enabled.');
    const { secret, uri } = newTotpSecret(user.email);
    await new IdentityRepository(this.db).updateUser(user.userId, { totp_pending_secret: this.totpBox.seal(secret) });
    await this.sessionsChanged(this.db, user.userId);
    return { secret, otpauth_uri: uri };
  }

  /** Confirms the pending secret with a code: TOTP is on, and 10 recovery codes are answered once. */
  async confirmTotpEnrolment(user: SignedInUser, code: string) {
    if (user.stage === 'TOTP_REQUIRED' || user.totpEnabled)
      throw new AppError('TOTP.INVALID_STATE', 'Two-factor authentication is already enabled.');
    await this.throttleTotp(user);
    const row = await this.userRow(user);
    if (!row.totp_pending_secret)
      throw new AppError('TOTP.INVALID_STATE', 'Start the enrolment first (POST /portal/auth/totp).');
    const step = totpStepOf(this.totpBox.open(row.totp_pending_secret), code, this.now());
    if (step === undefined) throw new AppError('AUTH.TOTP');
    const codes = newRecoveryCodes();
    await inTransaction(this.db, async (trx) => {
      const repo = new IdentityRepository(trx);
      await repo.updateUser(user.userId, {
        totp_secret: row.totp_pending_secret,
        totp_pending_secret: null,
        totp_enabled_at: new Date(this.now()),
        totp_last_step: step,
      });
      await repo.replaceRecoveryCodes(user.userId, codes.map(sha256));
      if (user.stage === 'TOTP_ENROLMENT_REQUIRED') await repo.setSessionStage(user.sessionId, 'ACTIVE');
      await this.sessionsChanged(trx, user.userId);
    });
    return { recovery_codes: codes };
  }

  /** Turns TOTP off with a current code; not while the partner requires it. */
  async disableTotp(user: SignedInUser, code: string) {
    if (user.stage !== 'ACTIVE' || !user.totpEnabled)
      throw new AppError('TOTP.INVALID_STATE', 'Two-factor authentication is not enabled.');
    if (user.totpRequired)
      throw new AppError('TOTP.INVALID_STATE', 'Your partner requires two-factor authentication for every user.');
    await this.throttleTotp(user);
    const row = await this.userRow(user);
    if (!row.totp_secret || !(await this.codeAccepted(row.id, row.totp_secret, code))) throw new AppError('AUTH.TOTP');
    await inTransaction(this.db, async (trx) => {
      const repo = new IdentityRepository(trx);
      await repo.updateUser(user.userId, {
        totp_secret: null,
        totp_pending_secret: null,
        totp_enabled_at: null,
        totp_last_step: null,
      });
      await repo.replaceRecoveryCodes(user.userId, []);
      await this.sessionsChanged(trx, user.userId);
    });
  }
}
