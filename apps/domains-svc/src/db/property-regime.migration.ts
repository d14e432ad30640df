import { sql, type Kysely } from '@platform/db';

/**
 * 2026_12_03_0001_property_regime: the notice the property's visitors get (AUTO: each visitor's
 * regime from their place; or one regime for everyone) and its Google Consent Mode switches
 * (ads_data_redaction on by default: ad clicks carry no identifiers while ad_storage is denied;
 * url_passthrough off, Google's default). See docs/widget.md.
 */
export async function addPropertyRegime(db: Kysely<unknown>) {
  await sql`
    ALTER TABLE properties
      ADD COLUMN regime text NOT NULL DEFAULT 'AUTO'
        CONSTRAINT properties_regime_known CHECK (regime IN ('AUTO', 'OPT_IN', 'OPT_OUT', 'NOTICE_ONLY')),
      ADD COLUMN ads_data_redaction boolean NOT NULL DEFAULT true,
      ADD COLUMN url_passthrough boolean NOT NULL DEFAULT false`.execute(db);
}
