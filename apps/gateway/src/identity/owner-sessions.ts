import { inTransaction, type Kysely } from '@platform/db';
import type { GatewayDb } from '../db/tables';
import { IdentityRepository, SESSION_TOUCH_MS } from './identity.repository';
import { newToken, sha256 } from './secrets';
import { signedInOwnerOf, type SignedInOwner } from './signed-in-owner';

/**
 * The owner console's sessions, on the partner sign-in's tables and code (IdentityRepository):
 * links made by IdentityService.newSignInLink, sessions of audience OWNER.
 */
export class OwnerSessions {
  constructor(
    private readonly db: Kysely<GatewayDb>,
    private readonly settings: { sessionIdleMs: number; sessionMaxAgeMs: number },
    private readonly now: () => number,
  ) {}

  /**
   * Redeems an access user's link (once, before it expires, their access on) for an owner console
   * session: the same tokens, sessions and cookie settings as a portal user's, audience OWNER.
   */
  async create(token: string): Promise<{ cookieToken: string; owner: SignedInOwner } | undefined> {
    const now = new Date(this.now());
    const cookieToken = newToken();
    const created = await inTransaction(this.db, async (trx) => {
      const repo = new IdentityRepository(trx);
      const ownerUserId = await repo.redeemSignInToken(sha256(token), now, 'OWNER');
      if (!ownerUserId) return false;
      const owner = await trx
        .updateTable('owner_users')
        .set({ last_sign_in_at: now })
        .where('id', '=', ownerUserId)
        .where('access', '=', true)
        .returning('id')
        .executeTakeFirst();
      if (!owner) return false;
      await repo.insertSession({
        token_hash: sha256(cookieToken),
        audience: 'OWNER',
        owner_user_id: ownerUserId,
        stage: 'ACTIVE',
        csrf_token: newToken(24),
        last_seen_at: now,
        expires_at: new Date(now.getTime() + this.settings.sessionMaxAgeMs),
        created_at: now,
      });
      return true;
    });
    if (!created) return undefined;
    const owner = await this.resolve(cookieToken);
    return owner && { cookieToken, owner };
  }

  /** The live owner console session of a cookie's token (its user's access still on); undefined when there is none. */
  async resolve(cookieToken: string): Promise<SignedInOwner | undefined> {
    const row = await new IdentityRepository(this.db).touchOwnerSession(
      sha256(cookieToken),
      new Date(this.now()),
      this.settings.sessionIdleMs,
      SESSION_TOUCH_MS,
    );
    return row && signedInOwnerOf(row);
  }
}
