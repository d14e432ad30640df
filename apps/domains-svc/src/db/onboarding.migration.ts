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

/** The onboarding widgets' tables (onboarding/). */
export const onboardingMigrations = {
  '2026_11_30_0001_registrations': { up: createRegistrations },
};
