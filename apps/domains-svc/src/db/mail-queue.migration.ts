import { sql, type Kysely } from '@platform/db';

/** 2026_01_01_0002_domains: e-mail waiting to be sent. */
export async function createMailQueue(db: Kysely<unknown>) {
  await sql`
    CREATE TABLE mail_queue (
      id bigserial PRIMARY KEY,
      partner_id text NOT NULL,
      kind text NOT NULL,
      to_address text NOT NULL,
      subject text NOT NULL,
      text_body text NOT NULL,
      html_body text,
      attempts integer NOT NULL DEFAULT 0,
      next_attempt_at timestamptz NOT NULL DEFAULT now(),
      sent_at timestamptz,
      failed_at timestamptz,
      last_error text,
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE INDEX mail_queue_due ON mail_queue (next_attempt_at) WHERE sent_at IS NULL AND failed_at IS NULL`.execute(
    db,
  );
}
