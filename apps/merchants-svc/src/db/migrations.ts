import { sql, type Kysely } from '@platform/db';
import type { ServiceMigration } from '@platform/service';

/** Forward-only migrations of the `merchants` schema (the pool's search_path is the schema); the chassis adds its own tables. */
export const migrations: Record<string, ServiceMigration> = {
  '2026_11_23_0001_merchants': {
    // Keyed 2026_11_29 (a date after its commit) until then, which made any later migration sort before it.
    formerNames: ['2026_11_29_0001_merchants'],
    async up(db: Kysely<unknown>) {
      // Millisecond timestamps: what the API shows is what is stored, so created_at_end=<a shown created_at> includes that merchant.
      await sql`
        CREATE TABLE merchants (
          id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
          partner_id text NOT NULL,
          merchant_id text NOT NULL,
          company_name text,
          description text,
          meta jsonb NOT NULL DEFAULT '{}',
          default_product text,
          default_price_list text,
          registered_at timestamptz(3),
          created_at timestamptz(3) NOT NULL DEFAULT now(),
          updated_at timestamptz(3) NOT NULL DEFAULT now(),
          CONSTRAINT merchants_partner_merchant_key UNIQUE (partner_id, merchant_id)
        )`.execute(db);
      await sql`CREATE INDEX merchants_partner_list ON merchants (partner_id, created_at DESC, id DESC)`.execute(db);
      // meta.<key>=<value> filters are containment (meta @> '{"key":"value"}').
      await sql`CREATE INDEX merchants_meta ON merchants USING gin (meta jsonb_path_ops)`.execute(db);
      await sql`
        CREATE TABLE domain_links (
          domain_id uuid NOT NULL,
          partner_id text NOT NULL,
          merchant_id text NOT NULL,
          hostname text NOT NULL,
          status text NOT NULL,
          is_active boolean NOT NULL,
          email text NOT NULL,
          source text NOT NULL,
          domain_created_at timestamptz NOT NULL,
          linked_at timestamptz(3) NOT NULL,
          PRIMARY KEY (domain_id, merchant_id)
        )`.execute(db);
      // A merchant's newest link (its `domain`) and is_registered.
      await sql`CREATE INDEX domain_links_merchant ON domain_links (partner_id, merchant_id, linked_at DESC)`.execute(
        db,
      );
    },
  },
  '2026_11_24_0001_links_by_merchant': {
    // A link is to the merchant itself (its id), not to the merchant_id string: a rename carries
    // it, a delete clears it, a new merchant with an old merchant_id starts unlinked. requested_as
    // is the merchant_id the domain named when the link was made (domains-svc resolves by it).
    async up(db: Kysely<unknown>) {
      await sql`ALTER TABLE domain_links ADD COLUMN merchant_ref uuid`.execute(db);
      await sql`UPDATE domain_links l SET merchant_ref = m.id FROM merchants m WHERE m.partner_id = l.partner_id AND m.merchant_id = l.merchant_id`.execute(
        db,
      );
      await sql`DELETE FROM domain_links WHERE merchant_ref IS NULL`.execute(db);
      await sql`ALTER TABLE domain_links ALTER COLUMN merchant_ref SET NOT NULL`.execute(db);
      await sql`ALTER TABLE domain_links RENAME COLUMN merchant_id TO requested_as`.execute(db);
      await sql`ALTER TABLE domain_links DROP CONSTRAINT domain_links_pkey, ADD PRIMARY KEY (domain_id, merchant_ref)`.execute(
        db,
      );
      await sql`CREATE UNIQUE INDEX domain_links_requested ON domain_links (domain_id, requested_as)`.execute(db);
      await sql`DROP INDEX domain_links_merchant`.execute(db);
      await sql`CREATE INDEX domain_links_merchant ON domain_links (merchant_ref, linked_at DESC)`.execute(db);
      // Links a merchant's delete cleared: a later state of that domain naming the same merchant_id does not bring it back.
      await sql`
        CREATE TABLE cleared_links (
          domain_id uuid NOT NULL,
          requested_as text NOT NULL,
          partner_id text NOT NULL,
          cleared_at timestamptz NOT NULL DEFAULT now(),
          PRIMARY KEY (domain_id, requested_as)
        )`.execute(db);
    },
  },
};
