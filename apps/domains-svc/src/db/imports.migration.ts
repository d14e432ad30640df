import { sql, type Kysely } from '@platform/db';
import type { ServiceMigration } from '@platform/service';

/**
 * 2026_11_27_0001_domain_imports: an import (POST /portal/domains/imports) and its rows. Each row
 * the job runs is PENDING until the transaction that creates (reactivates, deactivates) its
 * domain marks it DONE; due_at is its lease (claimWithLease), so a dead worker's rows come back.
 */
export async function createImportTables(db: Kysely<unknown>) {
  await sql`
    CREATE TABLE imports (
      id uuid PRIMARY KEY,
      partner_id text NOT NULL,
      status text NOT NULL,
      mode text NOT NULL,
      action text NOT NULL,
      file_name text NOT NULL,
      rows_total integer NOT NULL,
      caller jsonb NOT NULL,
      created_by_type text NOT NULL,
      created_by_id text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      finished_at timestamptz
    )`.execute(db);
  await sql`CREATE INDEX imports_partner ON imports (partner_id, created_at DESC)`.execute(db);
  await sql`
    CREATE TABLE import_rows (
      id bigserial PRIMARY KEY,
      import_id uuid NOT NULL REFERENCES imports (id) ON DELETE CASCADE,
      line integer,
      hostname text NOT NULL,
      outcome text NOT NULL,
      state text NOT NULL,
      input jsonb,
      domain_id uuid,
      errors jsonb NOT NULL DEFAULT '[]',
      attempts integer NOT NULL DEFAULT 0,
      due_at timestamptz NOT NULL DEFAULT now(),
      done_at timestamptz
    )`.execute(db);
  await sql`CREATE INDEX import_rows_import ON import_rows (import_id, id)`.execute(db);
  await sql`CREATE INDEX import_rows_due ON import_rows (due_at, id) WHERE state = 'PENDING'`.execute(db);
}

/**
 * 2026_11_27_0002_import_rows_pending: an import's PENDING rows by import. The job asks after each
 * claim whether an import has any left (completeImports); without it that reads all the import's
 * rows (10,000) or all PENDING rows of every import.
 */
export async function createImportRowsPendingIndex(db: Kysely<unknown>) {
  await sql`CREATE INDEX import_rows_pending ON import_rows (import_id) WHERE state = 'PENDING'`.execute(db);
}

/** In order, after the migrations before them in migrations.ts. */
export const importMigrations: Record<string, ServiceMigration> = {
  '2026_11_27_0001_domain_imports': { up: createImportTables },
  '2026_11_27_0002_import_rows_pending': { up: createImportRowsPendingIndex },
};
