import { PERMISSIONS, type ApiKey } from '@platform/contracts';
import { afterCommit, inTransaction, sql, type Kysely } from '@platform/db';
import { AppError, listPage, notFound } from '@platform/http';
import { changeRecorder, type Actor } from '../audit/audit.repository';
import { ApiKeysRepository } from '../db/api-keys.repository';
import type { GatewayDb } from '../db/tables';
import { generateApiKey } from '../domain/api-key';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const HOUR_MS = 3_600_000;
const iso = (d: Date | null) => (d ? d.toISOString() : null);

interface KeyListRow {
  id: string;
  prefix: string;
  name: string | null;
  permissions: string[];
  allowed_ip: string | null;
  expires_at: Date | null;
  revoked_at: Date | null;
  created_at: Date;
  last_used_at: Date | null;
  rolled_to: string | null;
  created_by_type: 'USER' | 'OPERATOR' | null;
  created_by_id: string | null;
  created_by_email: string | null;
}

const keyView = (k: KeyListRow): ApiKey => ({
  id: k.id,
  prefix: k.prefix,
  name: k.name,
  permissions: k.permissions,
  allowed_ip: k.allowed_ip,
  expires_at: iso(k.expires_at),
  created_by: k.created_by_type ? { type: k.created_by_type, id: k.created_by_id, email: k.created_by_email } : null,
  last_used_at: iso(k.last_used_at),
  created_at: k.created_at.toISOString(),
  rolled_to: k.rolled_to,
  revoked_at: iso(k.revoked_at),
});

/** Who manages keys from the portal: a signed-in user of the partner. */
export interface KeyManager {
  partnerId: string;
  userId: string;
  actor: Actor;
}

/**
 * The partner's API keys as the portal manages them. Keys are made and hashed as the admin CLI
 * makes them; a revocation or a roll tells every gateway at commit (NOTIFY), as `key revoke` does.
 */
export class PortalKeysService {
  private readonly audit = changeRecorder<'api_key.created' | 'api_key.revoked' | 'api_key.rolled'>('api_key', () =>
    this.now(),
  );

  constructor(
    private readonly db: Kysely<GatewayDb>,
    private readonly now: () => number = Date.now,
    /** This gateway drops its cached record at once (others when the NOTIFY reaches them, milliseconds later). */
    private readonly onKeyChanged: (prefix: string) => void = () => undefined,
  ) {}

  private rows(db: Kysely<GatewayDb>, partnerId: string) {
    return db
      .selectFrom('api_keys as k')
      .leftJoin('users as u', 'u.id', 'k.created_by_id')
      .select([
        'k.id',
        'k.prefix',
        'k.name',
        'k.permissions',
        'k.allowed_ip',
        'k.expires_at',
        'k.revoked_at',
        'k.created_at',
        'k.last_used_at',
        'k.rolled_to',
        'k.created_by_type',
        'k.created_by_id',
        'u.email as created_by_email',
      ])
      .where('k.partner_id', '=', partnerId);
  }

  async list(partnerId: string, query: { page: number; limit: number }) {
    const { items, meta } = await listPage(query, ({ offset, limitPlusOne }) =>
      this.rows(this.db, partnerId)
        .orderBy('k.created_at', 'desc')
        .orderBy('k.id', 'desc')
        .offset(offset)
        .limit(limitPlusOne)
        .execute(),
    );
    return { meta, result: items.map(keyView) };
  }

  async create(
    by: KeyManager,
    input: { name: string; permissions: string[]; allowed_ip?: string | null; expires_at?: string | null },
  ) {
    return inTransaction(this.db, async (trx) => {
      const { key, id } = await this.insertKey(trx, by, {
        name: input.name,
        permissions: [...new Set(input.permissions)].filter((p) => (PERMISSIONS as readonly string[]).includes(p)),
        allowed_ip: input.allowed_ip ?? null,
        expires_at: input.expires_at ? new Date(input.expires_at) : null,
      });
      const view = await this.view(trx, by.partnerId, id);
      await this.audit(trx, by, 'api_key.created', view.id, { name: view.name, prefix: view.prefix });
      return { ...view, secret: key };
    });
  }

  async revoke(by: KeyManager, keyId: string) {
    return inTransaction(this.db, async (trx) => {
      const found = await this.lock(trx, by.partnerId, keyId);
      await trx
        .updateTable('api_keys')
        .set({ revoked_at: sql<Date>`coalesce(revoked_at, ${new Date(this.now())})` })
        .where('id', '=', found.id)
        .execute();
      await this.changed(trx, found.prefix);
      const view = await this.view(trx, by.partnerId, found.id);
      await this.audit(trx, by, 'api_key.revoked', view.id, { name: view.name, prefix: view.prefix });
      return view;
    });
  }

  /** Every gateway drops its cached record at commit: the others on the NOTIFY, this one by its hook. */
  private async changed(trx: Kysely<GatewayDb>, prefix: string) {
    await new ApiKeysRepository(trx).notifyChanged(prefix);
    // At commit, not before: a keyed request commits after its handler returns (libs/service runKeyed).
    await afterCommit(trx, () => this.onKeyChanged(prefix));
  }

  /** A new key with the old one's name, permissions, IP and expiry; the old one stops overlapHours from now. */
  async roll(by: KeyManager, keyId: string, overlapHours: number) {
    return inTransaction(this.db, async (trx) => {
      const old = await this.lock(trx, by.partnerId, keyId);
      const now = this.now();
      if (old.revoked_at || old.rolled_to || (old.expires_at && old.expires_at.getTime() <= now))
        throw new AppError('API_KEY.INVALID_STATE');
      const { key, id } = await this.insertKey(trx, by, {
        name: old.name,
        permissions: old.permissions,
        allowed_ip: old.allowed_ip,
        expires_at: old.expires_at,
      });
      const overlapEnds = new Date(now + overlapHours * HOUR_MS);
      await trx
        .updateTable('api_keys')
        .set({
          rolled_to: id,
          expires_at: old.expires_at && old.expires_at < overlapEnds ? old.expires_at : overlapEnds,
        })
        .where('id', '=', old.id)
        .execute();
      await this.changed(trx, old.prefix);
      const view = await this.view(trx, by.partnerId, id);
      await this.audit(trx, by, 'api_key.rolled', old.id, {
        name: old.name,
        prefix: old.prefix,
        new_key_id: id,
        new_prefix: view.prefix,
        old_key_stops_at: overlapEnds.toISOString(),
      });
      return { ...view, secret: key };
    });
  }

  private async insertKey(
    trx: Kysely<GatewayDb>,
    by: KeyManager,
    values: { name: string | null; permissions: string[]; allowed_ip: string | null; expires_at: Date | null },
  ) {
    const { key, prefix, hash } = generateApiKey();
    const row = await new ApiKeysRepository(trx).insert({
      partner_id: by.partnerId,
      prefix,
      secret_hash: hash,
      created_by_type: 'USER',
      created_by_id: by.userId,
      ...values,
    });
    return { key, id: row.id };
  }

  private async lock(trx: Kysely<GatewayDb>, partnerId: string, keyId: string) {
    const row = UUID.test(keyId)
      ? await trx
          .selectFrom('api_keys')
          .select(['id', 'prefix', 'name', 'permissions', 'allowed_ip', 'expires_at', 'revoked_at', 'rolled_to'])
          .where('id', '=', keyId)
          .where('partner_id', '=', partnerId)
          .forUpdate()
          .executeTakeFirst()
      : undefined;
    if (!row) throw notFound('API key');
    return row;
  }

  private async view(trx: Kysely<GatewayDb>, partnerId: string, keyId: string) {
    return keyView(await this.rows(trx, partnerId).where('k.id', '=', keyId).executeTakeFirstOrThrow());
  }
}
