import { CONSENT_CATEGORY_IDS } from '@platform/contracts';

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

/** A record's fields as the export reads them from the stored body (records-export.ts's query). */
export interface CsvSource {
  receipt_id: string;
  created_at: string;
  receipt_type: string;
  receipt_status: string;
  categories: Record<string, boolean> | null;
  gpc: boolean | null;
  country: string | null;
  region: string | null;
  jurisdiction: string | null;
  property_id: string;
  subject: string;
  consent_revision: string | null;
  widget_version: string | null;
}

/** The categories the visitor granted, or refused, in the widget's order (necessary is always granted). */
const categoriesWith = (r: CsvSource, granted: boolean) =>
  CONSENT_CATEGORY_IDS.filter((c) => (r.categories?.[c] ?? c === 'necessary') === granted).join(' ');

/** The export's columns and how each is read from a record. */
const COLUMNS: [string, (r: CsvSource) => string | boolean | null][] = [
  ['receipt_id', (r) => r.receipt_id],
  ['created_at', (r) => r.created_at],
  ['receipt_type', (r) => r.receipt_type],
  ['receipt_status', (r) => r.receipt_status],
  ['granted', (r) => categoriesWith(r, true)],
  ['denied', (r) => categoriesWith(r, false)],
  ['gpc', (r) => r.gpc],
  ['country', (r) => r.country],
  ['region', (r) => r.region],
  ['jurisdiction', (r) => r.jurisdiction],
  ['property_id', (r) => r.property_id],
  ['subject', (r) => r.subject],
  ['consent_revision', (r) => r.consent_revision],
  ['widget_version', (r) => r.widget_version],
];

export const RECORDS_CSV_HEADER = COLUMNS.map(([name]) => name);

/** The file's start: a byte order mark (so spreadsheets read UTF-8) and the header row; lines end with CRLF. */
export const CSV_HEAD = `\uFEFF${RECORDS_CSV_HEADER.join(',')}\r\n`;

/** One record's row, CRLF included. */
export const csvRow = (r: CsvSource) => `${COLUMNS.map(([, read]) => csvCell(read(r))).join(',')}\r\n`;
