import { sql, type Kysely } from '@platform/db';
import { createMailQueueRecipientIndex, createMailQueueTable } from '@platform/mail';
import type { ServiceMigration } from '@platform/service';
import { dsarLifecycleMigration } from './dsar-lifecycle.migration';
import { addReceiptRegime } from './receipt-regime.migration';
import { countersMigrations } from '../figures/counters.migration';

/** Forward-only migrations of the `consent` schema (the pool's search_path is the schema); the chassis adds its own tables. */
export const migrations: Record<string, ServiceMigration> = {
  '2026_11_24_0001_consent': {
    async up(db: Kysely<unknown>) {
      await sql`
        CREATE TABLE properties (
          property_id text PRIMARY KEY,
          partner_id text NOT NULL,
          domain_id text NOT NULL,
          hostname text NOT NULL,
          subdomains text[] NOT NULL DEFAULT '{}',
          status text NOT NULL,
          merchant_ids text[] NOT NULL DEFAULT '{}',
          merchant_refs text[] NOT NULL DEFAULT '{}',
          company_id text NOT NULL,
          company jsonb NOT NULL,
          deleted boolean NOT NULL DEFAULT false,
          updated_at timestamptz(3) NOT NULL DEFAULT now()
        )`.execute(db);
      await sql`CREATE INDEX properties_domain ON properties (partner_id, domain_id)`.execute(db);
      await sql`CREATE INDEX properties_merchants ON properties USING gin (merchant_ids)`.execute(db);
      await sql`
        CREATE TABLE records (
          id text PRIMARY KEY,
          partner_id text NOT NULL,
          property_id text NOT NULL,
          domain_id text NOT NULL,
          receipt_type text NOT NULL,
          receipt_status text NOT NULL,
          body jsonb NOT NULL,
          signature text NOT NULL,
          nonce text NOT NULL,
          created_at timestamptz(3) NOT NULL,
          CONSTRAINT records_nonce_key UNIQUE (property_id, nonce)
        )`.execute(db);
      // Lists are read per domain (a merchant's are its domains'), newest first.
      await sql`CREATE INDEX records_domain_list ON records (partner_id, domain_id, created_at DESC, id DESC)`.execute(
        db,
      );
      await sql`
        CREATE TABLE data_requests (
          id text PRIMARY KEY,
          partner_id text NOT NULL,
          property_id text NOT NULL,
          domain_id text NOT NULL,
          type text NOT NULL,
          email text NOT NULL,
          name text,
          message text,
          subject text,
          receipt_id text,
          created_at timestamptz(3) NOT NULL DEFAULT now()
        )`.execute(db);
      await sql`CREATE INDEX data_requests_property ON data_requests (partner_id, property_id, created_at DESC)`.execute(
        db,
      );
      // The company owner's e-mail about each request (libs/mail sends it).
      await createMailQueueTable(db);
    },
  },
  '2026_11_24_0002_scanned_collection': {
    // What the site scanner found on the property (property.updated's data_collection), named in each record.
    async up(db: Kysely<unknown>) {
      await sql`ALTER TABLE properties ADD COLUMN scanned_collection jsonb NOT NULL DEFAULT '[]'`.execute(db);
    },
  },
  '2026_11_24_0003_merchant_refs_index': {
    // A merchant's records are found by merchant_id or by the merchant's own id: both arrays indexed.
    async up(db: Kysely<unknown>) {
      await sql`CREATE INDEX properties_merchant_refs ON properties USING gin (merchant_refs)`.execute(db);
    },
  },
  '2026_11_26_0001_has_dsar': {
    // Whether the property offers the request form (domains-svc's has_dsar): requests to one that does not are 404.
    async up(db: Kysely<unknown>) {
      await sql`ALTER TABLE properties ADD COLUMN has_dsar boolean NOT NULL DEFAULT true`.execute(db);
    },
  },
  '2026_11_26_0002_held_data_requests': {
    // Requests past the per-property or per-owner limit are stored but not e-mailed one by one (held),
    // then named in one summary e-mail (summarised_at). The owner's recent request mails are counted by address.
    async up(db: Kysely<unknown>) {
      await sql`ALTER TABLE data_requests ADD COLUMN held boolean NOT NULL DEFAULT false`.execute(db);
      await sql`ALTER TABLE data_requests ADD COLUMN summarised_at timestamptz(3)`.execute(db);
      await sql`CREATE INDEX data_requests_held ON data_requests (property_id) WHERE held AND summarised_at IS NULL`.execute(
        db,
      );
      await createMailQueueRecipientIndex(db);
    },
  },
  '2026_11_26_0003_records_partner_day': {
    // The Dashboard's receipts per day: a range of one partner's records read from the index alone
    // (receipt_status included), never the table nor other partners' rows.
    async up(db: Kysely<unknown>) {
      await sql`CREATE INDEX records_partner_created ON records (partner_id, created_at) INCLUDE (receipt_status)`.execute(
        db,
      );
    },
  },
  // The regime each record's notice followed, beside its jurisdiction (see receipt-regime.migration.ts).
  '2026_12_03_0001_receipt_regime': { up: addReceiptRegime },
  '2026_12_03_0002_dsar_lifecycle': dsarLifecycleMigration,
  ...countersMigrations,
};
