import type { Insertable, Selectable } from 'kysely';
import { sql, type Kysely } from '@platform/db';
import { KEYS_CHANNEL, type ApiKeysTable, type GatewayDb, type PartnersTable } from './tables';

const PUBLIC_COLUMNS = [
  'id',
  'partner_id',
  'name',
  'prefix',
  'permissions',
  'allowed_ip',
  'expires_at',
  'revoked_at',
  'created_at',
] as const;

type KeyColumns = Selectable<ApiKeysTable>;

/** A key's public facts: what `key list` shows. Never the hash. */
export type ApiKeyRow = Pick<KeyColumns, (typeof PUBLIC_COLUMNS)[number]>;

/** What the gateway needs to authenticate a request with a key: the key, and its partner's settings. */
export type KeyCredentialRow = Pick<
  KeyColumns,
  'id' | 'partner_id' | 'prefix' | 'secret_hash' | 'permissions' | 'allowed_ip' | 'expires_at' | 'revoked_at'
> &
  Pick<Selectable<PartnersTable>, 'required_fields' | 'default_product' | 'default_price_list'> & {
    partner_name: string;
  };

/** All SQL on gateway.api_keys. */
export class ApiKeysRepository {
  constructor(private readonly db: Kysely<GatewayDb>) {}

  insert(values: Insertable<ApiKeysTable>): Promise<ApiKeyRow> {
    return this.db.insertInto('api_keys').values(values).returning(PUBLIC_COLUMNS).executeTakeFirstOrThrow();
  }

  listByPartner(partnerId: string): Promise<ApiKeyRow[]> {
    return this.db
      .selectFrom('api_keys')
      .select(PUBLIC_COLUMNS)
      .where('partner_id', '=', partnerId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
  }

  /** Marks the key revoked (keeping the first revocation time) and returns it, or undefined if unknown. */
  revoke(id: string): Promise<ApiKeyRow | undefined> {
    return this.db
      .updateTable('api_keys')
      .set({ revoked_at: sql<Date>`coalesce(revoked_at, now())` })
      .where('id', '=', id)
      .returning(PUBLIC_COLUMNS)
      .executeTakeFirst();
  }

  findCredentialByPrefix(prefix: string): Promise<KeyCredentialRow | undefined> {
    return this.db
      .selectFrom('api_keys as k')
      .innerJoin('partners as p', 'p.id', 'k.partner_id')
      .select([
        'k.id',
        'k.partner_id',
        'k.prefix',
        'k.secret_hash',
        'k.permissions',
        'k.allowed_ip',
        'k.expires_at',
        'k.revoked_at',
        'p.required_fields',
        'p.name as partner_name',
        'p.default_product',
        'p.default_price_list',
      ])
      .where('k.prefix', '=', prefix)
      .executeTakeFirst();
  }

  /** Tells every gateway to drop its cached records of the partner's keys (its settings changed); delivered at commit. */
  async notifyPartnerChanged(partnerId: string): Promise<void> {
    await sql`SELECT pg_notify(${KEYS_CHANNEL}, prefix) FROM api_keys WHERE partner_id = ${partnerId}`.execute(this.db);
  }

  /** Tells every gateway to drop its cached record of this key; delivered when the transaction commits. */
  async notifyChanged(prefix: string): Promise<void> {
    await sql`SELECT pg_notify(${KEYS_CHANNEL}, ${prefix})`.execute(this.db);
  }
}
