import { sql, type Kysely } from '@platform/db';

/**
 * 2026_11_30_0001_registrations: the registration widget's registrations, kept until their
 * e-mailed link is opened (or pruned a week after it expired). The link's token is kept only as
 * its SHA-256; the domain made from it is noted, so opening the link again makes nothing more.
 */
async function createRegistrations(db: Kysely<unknown>) {
  await sql`
    CREATE TABLE registrations (
      id uuid PRIMARY KEY,
      partner_id text NOT NULL,
      token_hash bytea NOT NULL UNIQUE CHECK (length(token_hash) = 32),
      email text NOT NULL,
      hostname text NOT NULL,
      input jsonb NOT NULL,
      expires_at timestamptz NOT NULL,
      confirmed_at timestamptz,
      domain_id uuid,
      property_id uuid,
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  // The per-address throttle counts an address's recent links; pruning finds the expired ones.
  await sql`CREATE INDEX registrations_partner_email ON registrations (partner_id, email, created_at)`.execute(db);
  await sql`CREATE INDEX registrations_expires_at ON registrations (expires_at)`.execute(db);
}

/**
 * 2026_11_30_0002_widget_scans: the scan widget's requests, each on the scan it started or joined
 * (scanner/): the visitor's address until the report is e-mailed (reported_at), found by the
 * status token's SHA-256; pruned after 30 days.
 */
async function createWidgetScans(db: Kysely<unknown>) {
  await sql`
    CREATE TABLE widget_scans (
      id uuid PRIMARY KEY,
      partner_id text NOT NULL,
      token_hash bytea NOT NULL UNIQUE CHECK (length(token_hash) = 32),
      scan_id uuid NOT NULL REFERENCES scans (id) ON DELETE CASCADE,
      domain_id uuid NOT NULL REFERENCES domains (id) ON DELETE CASCADE,
      hostname text NOT NULL,
      email text NOT NULL,
      reported_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE INDEX widget_scans_scan ON widget_scans (scan_id)`.execute(db);
  await sql`CREATE INDEX widget_scans_created_at ON widget_scans (created_at)`.execute(db);
}

/** The onboarding widgets' tables (onboarding/, scanner/). */
export const onboardingMigrations = {
  '2026_11_30_0001_registrations': { up: createRegistrations },
  '2026_11_30_0002_widget_scans': { up: createWidgetScans },
};
