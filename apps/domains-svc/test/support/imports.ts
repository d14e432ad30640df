import { Workbook } from 'exceljs';
import { IMPORT_COLUMNS } from '@platform/contracts';
import type { TestPartner } from './harness';

/** The template's header row. */
export const HEADERS = IMPORT_COLUMNS.map((c) => c.header);

/** A template row for a host: a valid one unless cells say otherwise (by header). */
export const importRow = (host: string, cells: Record<string, string> = {}) =>
  HEADERS.map(
    (h) =>
      cells[h] ??
      (
        {
          domain: host,
          'company name': `Shop ${host}`,
          'company legal name': `Company of ${host}`,
          'e-mail': `owner@${host}`,
          country: 'GB',
        } as Record<string, string>
      )[h] ??
      '',
  );

/** RFC 4180 CSV of rows (the header first). */
export const csvOf = (rows: string[][]) =>
  rows.map((r) => r.map((v) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v)).join(',')).join('\r\n');

/** An .xlsx built with exceljs; a cell given as { formula } is a formula cell. */
export async function xlsxOf(rows: (string | { formula: string })[][]): Promise<Buffer> {
  const workbook = new Workbook();
  const sheet = workbook.addWorksheet('domains');
  for (const row of rows) sheet.addRow(row.map((v) => (typeof v === 'string' ? v : { formula: v.formula, result: 0 })));
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** POST /portal/domains/imports with the file in `asset`, as a browser's FormData sends it. */
export async function postImport(
  base: string,
  who: TestPartner,
  file: { name: string; data: Buffer | string },
  fields: Record<string, string> = {},
  headers: Record<string, string> = {},
) {
  const form = new FormData();
  form.set('asset', new Blob([typeof file.data === 'string' ? file.data : new Uint8Array(file.data)]), file.name);
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  const res = await fetch(`${base}/portal/domains/imports`, {
    method: 'POST',
    headers: { authorization: `Bearer ${who.token}`, ...headers },
    body: form,
  });
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text) };
}
