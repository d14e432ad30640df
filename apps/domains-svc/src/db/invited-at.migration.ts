import { sql, type Kysely } from '@platform/db';

/**
 * 2026_11_26_0004_domains_invited_at: the Dashboard's funnel counts domains by the week of their
 * first invitation, a time not kept before. A domain INVITED at the upgrade takes its updated_at
 * (its latest change, usually the invite); one that moved on (ACTIVE, INACTIVE) or was never
 * invited stays null. The funnel reads invited_at and activated_at per partner by index.
 */
export async function addInvitedAt(db: Kysely<unknown>) {
  await sql`ALTER TABLE domains ADD COLUMN invited_at timestamptz`.execute(db);
  await sql`UPDATE domains SET invited_at = updated_at WHERE status = 'INVITED'`.execute(db);
  await sql`CREATE INDEX domains_partner_invited ON domains (partner_id, invited_at) WHERE invited_at IS NOT NULL`.execute(
    db,
  );
  await sql`CREATE INDEX domains_partner_activated ON domains (partner_id, activated_at) WHERE activated_at IS NOT NULL`.execute(
    db,
  );
}
