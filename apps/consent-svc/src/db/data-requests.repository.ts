import type { DsarBody } from '@platform/contracts';
import { sql, type Kysely } from '@platform/db';
import type { VisitorPlace } from '@platform/geo';
import type { PropertyRow } from './properties.repository';
import type { ConsentDb } from './tables';

export async function insertDataRequest(
  db: Kysely<ConsentDb>,
  r: {
    id: string;
    property: PropertyRow;
    body: DsarBody;
    receiptId: string | null;
    tokenHash: Buffer;
    confirmBy: Date;
    clientHash: Buffer | null;
    place: VisitorPlace;
    deadlineRule: 'GDPR' | 'US_STATE';
    now: Date;
  },
) {
  await db
    .insertInto('data_requests')
    .values({
      id: r.id,
      partner_id: r.property.partner_id,
      property_id: r.property.property_id,
      domain_id: r.property.domain_id,
      type: r.body.type,
      email: r.body.email,
      name: r.body.name ?? null,
      message: r.body.message ?? null,
      subject: r.body.subject ?? null,
      receipt_id: r.receiptId,
      status: 'RECEIVED',
      token_hash: r.tokenHash,
      confirm_expires_at: r.confirmBy,
      client_hash: r.clientHash,
      country: r.place.country,
      jurisdiction: r.place.jurisdiction,
      deadline_rule: r.deadlineRule,
      created_at: r.now,
    })
    .execute();
}

/**
 * The owner's request e-mails queued one by one in the last hour (one per verified request): for this property, and to this owner's
 * address from any property. Takes transaction-scoped locks on both first (always property, then
 * owner), so concurrent requests count each other and a flood cannot slip past the limit.
 */
export async function lockAndCountRecentMails(
  trx: Kysely<ConsentDb>,
  p: { partnerId: string; propertyId: string; owner: string },
) {
  await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`dsar-property:${p.propertyId}`}, 0))`.execute(trx);
  await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`dsar-owner:${p.owner}`}, 0))`.execute(trx);
  const { rows } = await sql<{ by_property: string; by_owner: string }>`
    SELECT
      (SELECT count(*) FROM data_requests
        WHERE partner_id = ${p.partnerId} AND property_id = ${p.propertyId} AND NOT held
          AND verified_at > now() - interval '1 hour') AS by_property,
      (SELECT count(*) FROM mail_queue
        WHERE to_address = ${p.owner} AND kind = 'dsar' AND created_at > now() - interval '1 hour') AS by_owner`.execute(
    trx,
  );
  return { byProperty: Number(rows[0].by_property), byOwner: Number(rows[0].by_owner) };
}

/** Held requests not named in a summary yet (oldest first), with their property. */
export async function findHeldRequests(db: Kysely<ConsentDb>, limit: number) {
  return db
    .selectFrom('data_requests as r')
    .innerJoin('properties as p', 'p.property_id', 'r.property_id')
    .select(['r.id', 'r.type', 'r.email', 'r.created_at', 'r.property_id', 'p.partner_id', 'p.hostname', 'p.company'])
    .where('r.held', '=', true)
    .where('r.summarised_at', 'is', null)
    .orderBy('r.created_at')
    .limit(limit)
    .execute();
}
export type HeldRequest = Awaited<ReturnType<typeof findHeldRequests>>[number];

export async function markSummarised(db: Kysely<ConsentDb>, ids: string[], at: Date) {
  if (ids.length === 0) return;
  await db.updateTable('data_requests').set({ summarised_at: at }).where('id', 'in', ids).execute();
}
