import { parse as parseCsv } from 'csv-parse/sync';
import { ValueType, Workbook, type Cell } from 'exceljs';
import JSZip from 'jszip';
import { IMPORT_COLUMNS, IMPORT_MAX_ROWS, type ImportRowError, type UploadedFile } from '@platform/contracts';
import { AppError } from '@platform/http';

/** A create-domain field a template column fills. */
export type ImportField = (typeof IMPORT_COLUMNS)[number]['field'];

/** A data row of the file: its line (the header is line 1), the cells of the template's columns, and what was refused in them. */
export interface FileRow {
  line: number;
  cells: Partial<Record<ImportField, string>>;
  errors: ImportRowError[];
}

const invalidFile = (message: string, reason: string) => new AppError('IMPORT.INVALID_FILE', message, { reason });
const tooManyRows = () =>
  new AppError('IMPORT.TOO_MANY_ROWS', `The file has more than ${IMPORT_MAX_ROWS} rows.`, {
    max_rows: IMPORT_MAX_ROWS,
  });

/**
 * The rows of an uploaded .csv or .xlsx, or the reason the whole file is refused (400
 * IMPORT.INVALID_FILE, 413 IMPORT.TOO_MANY_ROWS). Formula cells and text that a spreadsheet would
 * run as one (CSV injection) are refused per row (see cellRefusal); nothing is evaluated.
 */
export async function readImportFile(file: UploadedFile): Promise<FileRow[]> {
  const data = Buffer.from(file.data.buffer, file.data.byteOffset, file.data.byteLength);
  const kind = fileKind(file.filename, data);
  const table = kind === 'csv' ? csvTable(data) : await xlsxTable(data);
  return rowsOf(table);
}

/** Which reader: by extension, the bytes having the last word (an .xlsx is a zip; an old .xls an OLE file). */
function fileKind(filename: string, data: Buffer): 'csv' | 'xlsx' {
  const ext = /\.([a-z0-9]+)$/i.exec(filename)?.[1]?.toLowerCase();
  if (ext === 'xlsm' || ext === 'xltm' || ext === 'xlsb' || ext === 'xlam')
    throw invalidFile('Macro-enabled workbooks are refused; save the sheet as .xlsx or .csv.', 'macro_enabled');
  const zip = data.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
  const ole = data.subarray(0, 4).equals(Buffer.from([0xd0, 0xcf, 0x11, 0xe0]));
  if (ole) throw invalidFile('Old .xls workbooks are not read; save the sheet as .xlsx or .csv.', 'unsupported_type');
  if (ext === 'xlsx' || (ext !== 'csv' && zip)) {
    if (!zip) throw invalidFile('The file is not an .xlsx workbook.', 'malformed');
    // A zip keeps entry names in clear: a VBA project is xl/vbaProject.bin, whatever the extension says.
    if (data.includes('vbaProject.bin')) throw invalidFile('Workbooks with macros are refused.', 'macro_enabled');
    return 'xlsx';
  }
  if (ext === 'csv' || ext === 'txt' || ext === undefined) return 'csv';
  throw invalidFile('The file must be a .csv or an .xlsx.', 'unsupported_type');
}

/** A cell as read: its text, or that it holds a formula (never evaluated). */
type RawCell = string | { formula: true };
interface Table {
  /** Line number and cells of each non-empty row, the header first. */
  rows: { line: number; cells: RawCell[] }[];
}

function csvTable(data: Buffer): Table {
  let records: string[][];
  try {
    records = parseCsv(data, {
      bom: true,
      delimiter: [',', ';'],
      relax_column_count: true,
      skip_empty_lines: true,
      max_record_size: 64 * 1024,
      // One past the limit (the header aside) is enough to know it is over.
      to: IMPORT_MAX_ROWS + 2,
      info: false,
    }) as string[][];
  } catch (err) {
    throw invalidFile(`The CSV cannot be read: ${(err as Error).message}`, 'malformed');
  }
  return { rows: records.map((cells, i) => ({ line: i + 1, cells })) };
}

async function xlsxTable(data: Buffer): Promise<Table> {
  await checkWorkbookBounds(data);
  const workbook = new Workbook();
  try {
    await workbook.xlsx.load(data as unknown as Parameters<typeof workbook.xlsx.load>[0]);
  } catch {
    throw malformedWorkbook();
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) throw invalidFile('The workbook has no worksheet.', 'malformed');
  if (sheet.actualRowCount > IMPORT_MAX_ROWS + 1) throw tooManyRows();
  const rows: Table['rows'] = [];
  sheet.eachRow({ includeEmpty: false }, (row, line) => {
    const cells: RawCell[] = [];
    row.eachCell({ includeEmpty: true }, (cell, column) => {
      cells[column - 1] = cellOf(cell);
    });
    rows.push({ line, cells: Array.from(cells, (c) => c ?? '') });
  });
  return { rows };
}

/** What an .xlsx may unpack to: a 10 MB workbook of 10,000 rows stays well below all three. */
export const WORKBOOK_BOUNDS = {
  /** All entries together, uncompressed. */
  maxTotalBytes: 100 * 1024 * 1024,
  /** Uncompressed over compressed size of an entry (deflate reaches ~1000:1 on repeated bytes). */
  maxRatio: 100,
  maxEntries: 10_000,
};

const zipBomb = (message: string) => invalidFile(`${message} It is refused as a zip bomb.`, 'zip_bomb');
const malformedWorkbook = () => invalidFile('The workbook cannot be read (not a valid .xlsx).', 'malformed');
/** JSZip's private record of an entry's sizes, as the zip's central directory declares them. */
const declaredSizes = (entry: JSZip.JSZipObject) =>
  (entry as unknown as { _data: { compressedSize: number; uncompressedSize: number } })._data;

/**
 * Refuses (reason zip_bomb) an .xlsx that would unpack past WORKBOOK_BOUNDS, before exceljs
 * unpacks it whole in memory. Read with JSZip, the parser exceljs loads with, so the entries
 * checked are the ones exceljs reads. A central directory may lie about sizes (JSZip does not
 * check them), so each entry is then inflated as a stream and cut off past its declared size:
 * exceljs's inflate of the same bytes can give no more than was checked.
 */
async function checkWorkbookBounds(data: Buffer): Promise<void> {
  const zip = await JSZip.loadAsync(data).catch(() => {
    throw malformedWorkbook();
  });
  const { maxTotalBytes, maxRatio, maxEntries } = WORKBOOK_BOUNDS;
  const entries = Object.values(zip.files).filter((e) => !e.dir);
  if (entries.length > maxEntries) throw zipBomb(`The workbook has more than ${maxEntries} entries.`);
  let total = 0;
  for (const entry of entries) {
    const { compressedSize, uncompressedSize } = declaredSizes(entry);
    total += uncompressedSize;
    if (total > maxTotalBytes) throw zipBomb(`The workbook unpacks to more than ${maxTotalBytes / 2 ** 20} MB.`);
    if (uncompressedSize > maxRatio * Math.max(compressedSize, 1))
      throw zipBomb(`Its entry ${entry.name} is compressed more than ${maxRatio} to 1.`);
  }
  for (const entry of entries) {
    const declared = declaredSizes(entry).uncompressedSize;
    if ((await inflatedSize(entry, declared)) > declared)
      throw zipBomb(`Its entry ${entry.name} unpacks to more than the size it declares.`);
  }
}

/** The entry's inflated size, counted as it streams and cut off at the first chunk past `cap`. */
function inflatedSize(entry: JSZip.JSZipObject, cap: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const stream = entry.nodeStream('nodebuffer') as NodeJS.ReadableStream & { destroy(): void };
    let size = 0;
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= cap) return;
      stream.removeAllListeners('data');
      stream.pause();
      stream.destroy();
      resolve(size);
    });
    stream.on('end', () => resolve(size));
    stream.on('error', () => reject(malformedWorkbook()));
  });
}

function cellOf(cell: Cell): RawCell {
  if (cell.type === ValueType.Formula || cell.formula) return { formula: true };
  return cell.type === ValueType.Null ? '' : cell.text;
}

const normalHeader = (h: string) => h.trim().toLowerCase().replace(/\s+/g, ' ');
const COLUMN_BY_HEADER = new Map<string, ImportField>(IMPORT_COLUMNS.map((c) => [c.header, c.field]));

/** The header row matched to the template's columns (case-insensitive; unknown columns are left out), then each data row. */
function rowsOf({ rows }: Table): FileRow[] {
  const [header, ...body] = rows;
  if (!header) throw invalidFile('The file is empty: it needs the header row of the template.', 'no_header');
  if (body.length > IMPORT_MAX_ROWS) throw tooManyRows();
  const fields = header.cells.map((h) => (typeof h === 'string' ? COLUMN_BY_HEADER.get(normalHeader(h)) : undefined));
  if (!fields.includes('domain'))
    throw invalidFile('The header row has no "domain" column (see the template).', 'no_domain_column');
  return body
    .filter((row) => row.cells.some((c) => typeof c !== 'string' || c.trim() !== ''))
    .map(({ line, cells }) => {
      const row: FileRow = { line, cells: {}, errors: [] };
      fields.forEach((field, i) => {
        const cell = cells[i];
        if (!field || cell === undefined) return;
        const refusal = cellRefusal(field, cell);
        if (refusal) row.errors.push({ field, code: 'IMPORT.CELL_REFUSED', message: refusal });
        else if (typeof cell === 'string' && cell.trim() !== '') row.cells[field] = cell;
      });
      return row;
    });
}

/** A phone number may start with + (and is then digits and separators only). */
const PHONE = /^\+[\d\s().-]+$/;

/**
 * Why a cell is refused: a formula, or text a spreadsheet opening an export of it would run
 * (OWASP CSV injection: = + - @, tab, CR first, also after spaces). Refused, not rewritten, so
 * nothing the partner did not write is stored.
 */
export function cellRefusal(field: ImportField, cell: RawCell): string | undefined {
  if (typeof cell !== 'string') return 'formula cells are refused; paste the values instead';
  if (field === 'phone_number' && PHONE.test(cell.trim())) return undefined;
  if (/^[\t\r]/.test(cell) || /^\s*[=+\-@]/.test(cell))
    return 'must not start with =, +, -, @, a tab or a carriage return (spreadsheet formula)';
  return undefined;
}
