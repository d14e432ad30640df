import { sql, type Kysely } from '@platform/db';
import type { ServiceMigration } from '@platform/service';

/**
 * Data subject requests that run to a deadline: confirmed by the requester's e-mailed link (its
 * token kept only as a hash, until an expiry), then due by the requester's law, with the owner's
 * extension, reminders (each day once), the overdue mark and the closing; every step in a history.
 * Requests stored before this were e-mailed to the owner at once: they count as verified then.
 */
export const dsarLifecycleMigration: ServiceMigration = {
  async up(db: Kysely<unknown>) {
    await sql`
      ALTER TABLE data_requests
        ADD COLUMN status text NOT NULL DEFAULT 'RECEIVED',
        ADD COLUMN token_hash bytea,
        ADD COLUMN confirm_expires_at timestamptz(3),
        ADD COLUMN client_hash bytea,
        ADD COLUMN country text,
        ADD COLUMN jurisdiction text,
        ADD COLUMN deadline_rule text NOT NULL DEFAULT 'GDPR',
        ADD COLUMN verified_at timestamptz(3),
        ADD COLUMN due_at timestamptz(3),
        ADD COLUMN extended_at timestamptz(3),
        ADD COLUMN extension_reason text,
        ADD COLUMN reminded_days integer[] NOT NULL DEFAULT '{}',
        ADD COLUMN overdue_at timestamptz(3),
        ADD COLUMN closed_at timestamptz(3)`.execute(db);
    await sql`
      UPDATE data_requests SET status = 'VERIFIED', verified_at = created_at, due_at = created_at + interval '30 days'`.execute(
      db,
    );
    await sql`CREATE UNIQUE INDEX data_requests_token ON data_requests (token_hash) WHERE token_hash IS NOT NULL`.execute(
      db,
    );
    // The lists: a domain's requests (a merchant's are its domains'), newest first.
    await sql`CREATE INDEX data_requests_domain_list ON data_requests (partner_id, domain_id, created_at DESC, id DESC)`.execute(
      db,
    );
    // The sweep: unconfirmed ones to expire, open ones by due date (reminders, overdue).
    await sql`CREATE INDEX data_requests_unconfirmed ON data_requests (confirm_expires_at) WHERE status = 'RECEIVED'`.execute(
      db,
    );
    await sql`CREATE INDEX data_requests_open_due ON data_requests (due_at) WHERE status IN ('VERIFIED', 'IN_PROGRESS')`.execute(
      db,
    );
    // The throttles: one client's and one requester address's recent requests.
    await sql`CREATE INDEX data_requests_client ON data_requests (client_hash, created_at) WHERE client_hash IS NOT NULL`.execute(
      db,
    );
    await sql`CREATE INDEX data_requests_email ON data_requests (property_id, lower(email), created_at)`.execute(db);
    await sql`
      CREATE TABLE data_request_history (
        id bigserial PRIMARY KEY,
        request_id text NOT NULL REFERENCES data_requests (id) ON DELETE CASCADE,
        at timestamptz(3) NOT NULL DEFAULT now(),
        kind text NOT NULL,
        status text,
        note text,
        actor text
      )`.execute(db);
    await sql`CREATE INDEX data_request_history_request ON data_request_history (request_id, at, id)`.execute(db);
  },
};
