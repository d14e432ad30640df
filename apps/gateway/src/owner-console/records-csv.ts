import { CONSENT_CATEGORY_IDS, type ConsentRecord } from '@platform/contracts';

/**
 * Text a spreadsheet would run as a formula when it opens the file (OWASP "CSV injection"): = + -
 * or @ first, also after spaces, or a tab or carriage return first.
 */
const FORMULA = /^(\s*[=+\-@]|[\t\r])/;

/**
 * One CSV cell (RFC 4180): quoted when it holds a comma, quote or line break; a cell that would
 * run as a formula is kept as text, prefixed with ' and quoted, so the spreadsheet shows it as written.
 */
export function csvCell(value: string | number | boolean | null | undefined): string {
  const text = value === null || value === undefined ? '' : String(value);
  const formula = FORMULA.test(text);
  const safe = formula ? `'${text}` : text;
  return formula || /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

const csvLine = (cells: readonly (string | number | boolean | null | undefined)[]) => cells.map(csvCell).join(',');

/** The categories a record says were granted, or refused, in the widget's order (necessary is always granted). */
function categoriesWith(record: ConsentRecord, status: 'GRANTED' | 'DENIED'): string {
  const purposes = record.data_collection.flatMap((item) => item.purposes);
  return CONSENT_CATEGORY_IDS.filter((c) => purposes.some((p) => p.category === c && p.status === status)).join(' ');
}

/** The export's columns and how each is read from a record. */
const COLUMNS: [string, (r: ConsentRecord) => string | boolean | null][] = [
  ['receipt_id', (r) => r.receipt_id],
  ['created_at', (r) => r.created_at],
  ['receipt_type', (r) => r.receipt_type],
  ['receipt_status', (r) => r.receipt_status],
  ['granted', (r) => categoriesWith(r, 'GRANTED')],
  ['denied', (r) => categoriesWith(r, 'DENIED')],
  ['gpc', (r) => r.meta.gpc],
  ['country', (r) => r.country],
  ['region', (r) => r.region],
  ['jurisdiction', (r) => r.jurisdiction],
  ['property_id', (r) => r.property_id],
  ['subject', (r) => r.subject],
  ['consent_revision', (r) => r.meta.consent_revision],
  ['widget_version', (r) => r.meta.widget_version],
];

export const RECORDS_CSV_HEADER = COLUMNS.map(([name]) => name);

/** The records as a CSV file: a byte order mark (so spreadsheets read UTF-8), the header, a row per record, CRLF lines. */
export function recordsCsv(records: readonly ConsentRecord[]): Buffer {
  const lines = [csvLine(RECORDS_CSV_HEADER), ...records.map((r) => csvLine(COLUMNS.map(([, read]) => read(r))))];
  return Buffer.from(`\uFEFF${lines.join('\r\n')}\r\n`, 'utf8');
}
