import { sql, type Kysely } from '@platform/db';

/**
 * 2026_11_26_0003_email_templates: a partner's own wording of an owner e-mail, per kind (no row:
 * the platform's default, in code), and the partner's name as the gateway last sent it (for the
 * e-mails jobs and the scanner send without a caller).
 */
export async function createEmailTemplateTables(db: Kysely<unknown>) {
  await sql`
    CREATE TABLE email_templates (
      partner_id text NOT NULL,
      kind text NOT NULL,
      subject text NOT NULL,
      body text NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (partner_id, kind)
    )`.execute(db);
  await sql`
    CREATE TABLE partner_names (
      partner_id text PRIMARY KEY,
      name text NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
}
