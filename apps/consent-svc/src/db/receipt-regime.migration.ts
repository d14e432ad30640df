import { sql, type Kysely } from '@platform/db';

/**
 * 2026_12_03_0001_receipt_regime: the regime the visitor's notice followed (OPT_IN, OPT_OUT,
 * NOTICE_ONLY), as in the record's meta.regime; null for records made before regimes (their
 * signed bodies stay as they were).
 */
export async function addReceiptRegime(db: Kysely<unknown>) {
  await sql`ALTER TABLE records ADD COLUMN regime text`.execute(db);
}
