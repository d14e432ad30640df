import type { ConsentRecord, ReceiptStatus, ReceiptType, UnsignedConsentRecord } from '@platform/contracts';
import { sql, type Kysely } from '@platform/db';
import { AppError } from '@platform/http';
import { COUNT_STORED_CTES } from '../figures/count-stored';
import type { ConsentDb, RecordsTable } from './tables';

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

/** A signed record as it is stored (the table's row, its body as JSON text and its time as ISO text). */
export type RecordRow = Omit<RecordsTable, 'body' | 'created_at'> & { body: string; created_at: string };

export function recordRow(
  where: { partnerId: string; domainId: string; nonce: string },
  record: UnsignedConsentRecord,
  signature: string,
): RecordRow {
  return {
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
    regime: record.meta.regime ?? null,
  };
}

/** The records table's columns as the insert sends them: one array each, of the column's type. */
const COLUMN_ARRAYS = {
  id: 'text[]',
  partner_id: 'text[]',
  property_id: 'text[]',
  domain_id: 'text[]',
  receipt_type: 'text[]',
  receipt_status: 'text[]',
  body: 'jsonb[]',
  signature: 'text[]',
  nonce: 'text[]',
  created_at: 'timestamptz[]',
  regime: 'text[]',
} as const satisfies Record<keyof RecordRow, string>;
const COLUMNS = Object.keys(COLUMN_ARRAYS) as (keyof RecordRow)[];

/**
 * Stores rows in one statement (one array per column, so the statement's text is the same for any
 * number of rows) and answers the ids stored: a row whose nonce the property already holds (or an
 * earlier row of the same call holds) is skipped, not an error. The same statement (so the same
 * transaction) raises the consent figures' counters by the rows stored (COUNT_STORED_CTES).
 */
export async function storeRecords(db: Kysely<ConsentDb>, rows: RecordRow[]): Promise<Set<string>> {
  const arrays = COLUMNS.map((c) => sql`${rows.map((r) => r[c])}::${sql.raw(COLUMN_ARRAYS[c])}`);
  const { rows: stored } = await sql<{ id: string }>`
    WITH stored AS (
      INSERT INTO records (${sql.join(COLUMNS.map((c) => sql.ref(c)))})
      SELECT * FROM unnest(${sql.join(arrays)})
      ON CONFLICT (property_id, nonce) DO NOTHING
      RETURNING id, partner_id, property_id, domain_id, receipt_type, receipt_status, body, created_at
    ), ${COUNT_STORED_CTES}
    SELECT id FROM stored`.execute(db);
  return new Set(stored.map((r) => r.id));
}

/** Stores one signed record; the same nonce on the property again is 400 RECEIPT.REPLAYED (nothing stored). */
export async function insertRecord(db: Kysely<ConsentDb>, row: RecordRow): Promise<void> {
  if (!(await storeRecords(db, [row])).has(row.id)) throw new AppError('RECEIPT.REPLAYED');
}

/**
 * The domains whose records the scope may see, as the relation `d(id)`: the one named, and/or every
 * domain of the partner that names the merchant (by merchant_id or the merchant's id); another
 * partner's are never among them. A subquery, so a read stays one round trip. `@>` (not `= ANY`),
 * so both arrays' GIN indexes answer it: a partner's many properties are never scanned.
 */
export function scopeDomains(scope: RecordScope) {
  if (scope.merchantId === undefined)
    return scope.domainId === undefined ? undefined : sql`(VALUES (${scope.domainId}::text)) AS d(id)`;
  const oneDomain = scope.domainId === undefined ? sql`` : sql`AND p.domain_id = ${scope.domainId}`;
  return sql`(
    SELECT DISTINCT p.domain_id FROM properties p
    WHERE p.partner_id = ${scope.partnerId} AND (p.merchant_ids @> ${[scope.merchantId]}::text[] OR p.merchant_refs @> ${[scope.merchantId]}::text[]) ${oneDomain}
  ) AS d(id)`;
}

const toRecord = (row: { body: Record<string, unknown>; signature: string }) =>
  ({ ...row.body, signature: row.signature }) as ConsentRecord;

/**
 * One page (limit + 1 rows), newest first: each domain's newest rows come from its own index
 * (records_domain_list), then the few are merged, so a merchant's page costs what its domains'
 * pages cost, however many records they hold.
 */
export async function listRecords(
  db: Kysely<ConsentDb>,
  scope: RecordScope,
  f: RecordFilters,
  window: { offset: number; limitPlusOne: number },
) {
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
    WHERE r.partner_id = ${scope.partnerId} AND r.id = ${id} AND r.domain_id IN (SELECT d.id FROM ${domains})`.execute(
    db,
  );
  return rows[0] ? toRecord(rows[0]) : undefined;
}
