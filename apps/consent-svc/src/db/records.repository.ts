import type { ConsentRecord, ReceiptStatus, ReceiptType, UnsignedConsentRecord } from '@platform/contracts';
import { isUniqueViolation, sql, type Kysely } from '@platform/db';
import { AppError } from '@platform/http';
import type { ConsentDb } from './tables';

/** Which records a read may see: the partner's, through one domain or one merchant (or both). */
export interface RecordScope {
  partnerId: string;
  domainId?: string;
  merchantId?: string;
}

export interface RecordFilters {
  propertyId?: string;
  receiptType?: ReceiptType;
  receiptStatus?: ReceiptStatus;
}

/** Stores a signed record; the same nonce on the property again is 400 RECEIPT.REPLAYED (nothing stored). */
export async function insertRecord(db: Kysely<ConsentDb>, where: { partnerId: string; domainId: string; nonce: string }, record: UnsignedConsentRecord, signature: string) {
  try {
    await db
      .insertInto('records')
      .values({
        id: record.receipt_id,
        partner_id: where.partnerId,
        property_id: record.property_id,
        domain_id: where.domainId,
        receipt_type: record.receipt_type,
        receipt_status: record.receipt_status,
        body: JSON.stringify(record),
        signature,
        nonce: where.nonce,
        created_at: record.created_at,
      })
      .execute();
  } catch (err) {
    if (isUniqueViolation(err, 'records_nonce_key')) throw new AppError('RECEIPT.REPLAYED');
    throw err;
  }
}

/**
 * The domains whose records the scope may see, as the relation `d(id)`: the one named, and/or every
 * domain of the partner that names the merchant (by merchant_id or the merchant's id); another
 * partner's are never among them. A subquery, so a read stays one round trip.
 */
function scopeDomains(scope: RecordScope) {
  if (scope.merchantId === undefined) return scope.domainId === undefined ? undefined : sql`(VALUES (${scope.domainId}::text)) AS d(id)`;
  const oneDomain = scope.domainId === undefined ? sql`` : sql`AND p.domain_id = ${scope.domainId}`;
  return sql`(
    SELECT DISTINCT p.domain_id FROM properties p
    WHERE p.partner_id = ${scope.partnerId} AND (${scope.merchantId} = ANY(p.merchant_ids) OR ${scope.merchantId} = ANY(p.merchant_refs)) ${oneDomain}
  ) AS d(id)`;
}

const toRecord = (row: { body: Record<string, unknown>; signature: string }) => ({ ...row.body, signature: row.signature }) as ConsentRecord;

/**
 * One page (limit + 1 rows), newest first: each domain's newest rows come from its own index
 * (records_domain_list), then the few are merged, so a merchant's page costs what its domains'
 * pages cost, however many records they hold.
 */
export async function listRecords(db: Kysely<ConsentDb>, scope: RecordScope, f: RecordFilters, window: { offset: number; limitPlusOne: number }) {
  const domains = scopeDomains(scope);
  if (!domains) return [];
  const depth = window.offset + window.limitPlusOne;
  const filters = [
    ...(f.propertyId !== undefined ? [sql`AND r.property_id = ${f.propertyId}`] : []),
    ...(f.receiptType !== undefined ? [sql`AND r.receipt_type = ${f.receiptType}`] : []),
    ...(f.receiptStatus !== undefined ? [sql`AND r.receipt_status = ${f.receiptStatus}`] : []),
  ];
  const { rows } = await sql<{ body: Record<string, unknown>; signature: string }>`
    SELECT page.body, page.signature
    FROM ${domains}
    CROSS JOIN LATERAL (
      SELECT r.id, r.created_at, r.body, r.signature FROM records r
      WHERE r.partner_id = ${scope.partnerId} AND r.domain_id = d.id ${sql.join(filters, sql` `)}
      ORDER BY r.created_at DESC, r.id DESC
      LIMIT ${depth}
    ) AS page
    ORDER BY page.created_at DESC, page.id DESC
    OFFSET ${window.offset} LIMIT ${window.limitPlusOne}`.execute(db);
  return rows.map(toRecord);
}

export async function findRecord(db: Kysely<ConsentDb>, scope: RecordScope, id: string) {
  const domains = scopeDomains(scope);
  if (!domains) return undefined;
  const { rows } = await sql<{ body: Record<string, unknown>; signature: string }>`
    SELECT r.body, r.signature FROM records r
    WHERE r.partner_id = ${scope.partnerId} AND r.id = ${id} AND r.domain_id IN (SELECT d.id FROM ${domains})`.execute(db);
  return rows[0] ? toRecord(rows[0]) : undefined;
}
