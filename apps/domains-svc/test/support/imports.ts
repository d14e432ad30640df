import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { crc32, createDeflateRaw } from 'node:zlib';
import { Workbook } from 'exceljs';
import JSZip from 'jszip';
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

/** A zip entry as written: its name, its bytes, and optionally a smaller size to declare than it inflates to. */
interface ZipEntry {
  name: string;
  chunks: () => Iterable<Buffer>;
  declaredSize?: number;
}

/**
 * An .xlsx zip written entry by entry (deflated as a stream, so a 200 MB sheet never sits in
 * memory): exceljs and JSZip write no size they do not have, and a zip bomb needs to.
 */
export async function zipOf(entries: ZipEntry[]): Promise<Buffer> {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    let crc = 0;
    let size = 0;
    const deflated = await buffer(
      Readable.from(
        (function* () {
          for (const chunk of entry.chunks()) {
            crc = crc32(chunk, crc);
            size += chunk.length;
            yield chunk;
          }
        })(),
      ).pipe(createDeflateRaw({ level: 9 })),
    );
    const name = Buffer.from(entry.name);
    const sizes = { crc, compressed: deflated.length, uncompressed: entry.declaredSize ?? size };
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(sizes.crc, 14);
    local.writeUInt32LE(sizes.compressed, 18);
    local.writeUInt32LE(sizes.uncompressed, 22);
    local.writeUInt16LE(name.length, 26);
    const record = Buffer.alloc(46);
    record.writeUInt32LE(0x02014b50, 0);
    record.writeUInt16LE(20, 4);
    record.writeUInt16LE(20, 6);
    record.writeUInt16LE(8, 10);
    record.writeUInt32LE(sizes.crc, 16);
    record.writeUInt32LE(sizes.compressed, 20);
    record.writeUInt32LE(sizes.uncompressed, 24);
    record.writeUInt16LE(name.length, 28);
    record.writeUInt32LE(offset, 42);
    locals.push(local, name, deflated);
    central.push(record, name);
    offset += local.length + name.length + deflated.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/**
 * A valid workbook (the rows') whose first sheet is padded with `padBytes` of whitespace, which
 * deflates about 1000 to 1: a zip bomb. With `declaredSize` its zip says the sheet is that small.
 */
export async function workbookBomb(rows: string[][], padBytes: number, declaredSize?: number): Promise<Buffer> {
  const zip = await JSZip.loadAsync(await xlsxOf(rows));
  const entries: ZipEntry[] = [];
  for (const file of Object.values(zip.files).filter((f) => !f.dir)) {
    const data = await file.async('nodebuffer');
    if (file.name !== 'xl/worksheets/sheet1.xml') {
      entries.push({ name: file.name, chunks: () => [data] });
      continue;
    }
    // Whitespace before the closing tag keeps it a well-formed sheet.
    const close = data.lastIndexOf('</worksheet>');
    const pad = Buffer.alloc(1024 * 1024, 0x20);
    entries.push({
      name: file.name,
      declaredSize,
      chunks: function* () {
        yield data.subarray(0, close);
        for (let left = padBytes; left > 0; left -= pad.length) yield pad.subarray(0, Math.min(left, pad.length));
        yield data.subarray(close);
      },
    });
  }
  return zipOf(entries);
}
