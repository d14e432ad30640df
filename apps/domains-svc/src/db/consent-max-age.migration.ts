import { sql, type Kysely } from '@platform/db';

/**
 * 2026_12_02_0001_consent_max_age: how long a visitor's choice stands before the widget asks again
 * (the settings' consent_max_age_days). Every property starts at 12 months.
 */
export async function addConsentMaxAge(db: Kysely<unknown>) {
  await sql`
    ALTER TABLE properties ADD COLUMN consent_max_age_days integer NOT NULL DEFAULT 365
      CONSTRAINT properties_consent_max_age_days_range CHECK (consent_max_age_days BETWEEN 1 AND 730)`.execute(db);
}
