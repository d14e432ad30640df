import { Workbook } from 'exceljs';
import { IMPORT_COLUMNS } from '@platform/contracts';

const headers = IMPORT_COLUMNS.map((c) => c.header);
const examples = [0, 1].map((i) => IMPORT_COLUMNS.map((c) => c.example[i]));

/** The template as CSV: the header row and two example rows (RFC 4180 quoting). */
export function csvTemplate(): Buffer {
  const quote = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  const lines = [headers, ...examples].map((row) => row.map(quote).join(','));
  return Buffer.from(`${lines.join('\r\n')}\r\n`, 'utf8');
}

/** The template as an .xlsx workbook: one sheet, the header row bold, two example rows, every cell text. */
export async function xlsxTemplate(): Promise<Buffer> {
  const workbook = new Workbook();
  const sheet = workbook.addWorksheet('domains');
  sheet.addRow(headers).font = { bold: true };
  for (const row of examples) sheet.addRow(row);
  sheet.columns.forEach((column) => {
    column.width = 22;
    // Text cells: a phone or an id number is kept as written, never turned into a number.
    column.numFmt = '@';
  });
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
