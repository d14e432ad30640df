import { sql, type Kysely } from '@platform/db';
import type { ServiceMigration } from '@platform/service';

/**
 * The consent figures: one row per property and UTC day, its counters raised in the statement
 * that stores the receipts (records.repository.ts) or counts a notice view, never by scanning
 * records. Receipts stored before this migration are not counted (no backfill).
 */
export const countersMigrations: Record<string, ServiceMigration> = {
  '2026_12_03_0003_consent_counters': {
    async up(db: Kysely<unknown>) {
      await sql`
        CREATE TABLE consent_counters (
          property_id text NOT NULL,
          day date NOT NULL,
          partner_id text NOT NULL,
          domain_id text NOT NULL,
          notice_views bigint NOT NULL DEFAULT 0,
          accept_all bigint NOT NULL DEFAULT 0,
          reject_all bigint NOT NULL DEFAULT 0,
          custom bigint NOT NULL DEFAULT 0,
          gpc_opt_outs bigint NOT NULL DEFAULT 0,
          granted_functional bigint NOT NULL DEFAULT 0,
          granted_analytics bigint NOT NULL DEFAULT 0,
          granted_marketing bigint NOT NULL DEFAULT 0,
          PRIMARY KEY (property_id, day)
        )`.execute(db);
      // A domain's (or a merchant's domains') range of days.
      await sql`CREATE INDEX consent_counters_domain_day ON consent_counters (partner_id, domain_id, day)`.execute(db);
      // The partner's whole portfolio per day, raised with the properties' rows: a year is 365 rows,
      // however many properties (summing 10,000 properties' year took seconds).
      await sql`
        CREATE TABLE consent_partner_counters (
          partner_id text NOT NULL,
          day date NOT NULL,
          notice_views bigint NOT NULL DEFAULT 0,
          accept_all bigint NOT NULL DEFAULT 0,
          reject_all bigint NOT NULL DEFAULT 0,
          custom bigint NOT NULL DEFAULT 0,
          gpc_opt_outs bigint NOT NULL DEFAULT 0,
          granted_functional bigint NOT NULL DEFAULT 0,
          granted_analytics bigint NOT NULL DEFAULT 0,
          granted_marketing bigint NOT NULL DEFAULT 0,
          PRIMARY KEY (partner_id, day)
        )`.execute(db);
    },
  },
};
