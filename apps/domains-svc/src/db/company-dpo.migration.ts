import { sql, type Kysely } from '@platform/db';

/**
 * 2026_12_01_0001_company_dpo: the customer's data protection officer, as the owner console and
 * PUT /portal/instance/company set it and the widget's DPO view shows it. Either may be unset.
 */
export async function addCompanyDpo(db: Kysely<unknown>) {
  await sql`ALTER TABLE companies ADD COLUMN dpo_name text, ADD COLUMN dpo_email text`.execute(db);
}
