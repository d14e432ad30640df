import { RECORDS_EXPORT_MEDIA, type RecordsExportQuery } from '@platform/contracts';
import { sql, type Kysely } from '@platform/db';
import { streamReply, type StreamReply } from '@platform/http';
import { scopeDomains, type RecordScope } from '../db/records.repository';
import type { ConsentDb } from '../db/tables';
import { CSV_HEAD, csvRow, type CsvSource } from './records-csv';

const DAY_MS = 86_400_000;
type Filters = Pick<RecordsExportQuery, 'from' | 'to' | 'receipt_type' | 'receipt_status'>;
interface Position {
  at: Date;
  id: string;
}

/** What each format reads of a row: NDJSON the record's JSON text (signature added by PostgreSQL), CSV its fields. */
const SELECTED = {
  ndjson: sql`(r.body || jsonb_build_object('signature', r.signature))::text AS line`,
  csv: sql`r.body->>'receipt_id' AS receipt_id, r.body->>'created_at' AS created_at, r.receipt_type, r.receipt_status,
    r.body->'subject_data'->'categories' AS categories, (r.body->'meta'->>'gpc')::boolean AS gpc,
    r.body->>'country' AS country, r.body->>'region' AS region, r.body->>'jurisdiction' AS jurisdiction,
    r.property_id, r.body->>'subject' AS subject, r.body->'meta'->>'consent_revision' AS consent_revision,
    r.body->'meta'->>'widget_version' AS widget_version`,
};

/** The scope's domains, in id order (a merchant's several are exported one after the other). */
async function domainIds(db: Kysely<ConsentDb>, scope: RecordScope): Promise<string[]> {
  const domains = scopeDomains(scope);
  if (!domains) return [];
  const { rows } = await sql<{ id: string }>`SELECT DISTINCT d.id FROM ${domains} ORDER BY 1`.execute(db);
  return rows.map((r) => r.id);
}

/**
 * One keyset page of a domain's records in the range, oldest first, after `after`: read backwards
 * from the domain's index (records_domain_list), so each page costs the same however deep it is.
 */
async function page<Row>(
  db: Kysely<ConsentDb>,
  where: { partnerId: string; domainId: string; filters: Filters; after: Position | undefined; size: number },
  format: keyof typeof SELECTED,
) {
  const { partnerId, domainId, filters, after } = where;
  const start = new Date(Date.parse(filters.from));
  const end = new Date(Date.parse(filters.to) + DAY_MS);
  const conditions = [
    after ? sql`AND (r.created_at, r.id) > (${after.at}, ${after.id})` : sql`AND r.created_at >= ${start}`,
    ...(filters.receipt_type ? [sql`AND r.receipt_type = ${filters.receipt_type}`] : []),
    ...(filters.receipt_status ? [sql`AND r.receipt_status = ${filters.receipt_status}`] : []),
  ];
  const { rows } = await sql<Row & { position_at: Date; position_id: string }>`
    SELECT r.created_at AS position_at, r.id AS position_id, ${SELECTED[format]}
    FROM records r
    WHERE r.partner_id = ${partnerId} AND r.domain_id = ${domainId} AND r.created_at < ${end} ${sql.join(conditions, sql` `)}
    ORDER BY r.created_at, r.id
    LIMIT ${where.size}`.execute(db);
  return rows;
}

/** The export's text, a page at a time (one write per page): the next page is read only when the client took the last. */
async function* lines(
  db: Kysely<ConsentDb>,
  scope: RecordScope,
  filters: Filters,
  format: keyof typeof SELECTED,
  size: number,
): AsyncGenerator<string> {
  if (format === 'csv') yield CSV_HEAD;
  for (const domainId of await domainIds(db, scope)) {
    let after: Position | undefined;
    for (;;) {
      const rows = await page<{ line: string } & CsvSource>(
        db,
        { partnerId: scope.partnerId, domainId, filters, after, size },
        format,
      );
      if (rows.length === 0) break;
      yield format === 'csv' ? rows.map(csvRow).join('') : `${rows.map((r) => r.line).join('\n')}\n`;
      if (rows.length < size) break;
      const last = rows[rows.length - 1];
      after = { at: last.position_at, id: last.position_id };
    }
  }
}

/**
 * The scope's records of the range as NDJSON or CSV, streamed: keyset pages (never a transaction
 * held open for a slow client, never the whole set in memory), a domain at a time, each oldest first.
 */
export function exportRecords(
  db: Kysely<ConsentDb>,
  scope: RecordScope,
  query: Filters & Pick<RecordsExportQuery, 'format'>,
  pageSize: number,
): StreamReply {
  const { format } = query;
  const name = `consent-records-${query.from}-${query.to}.${format}`;
  const media = format === 'csv' ? `${RECORDS_EXPORT_MEDIA.csv}; charset=utf-8` : RECORDS_EXPORT_MEDIA.ndjson;
  return streamReply(name, media, lines(db, scope, query, format, pageSize));
}
