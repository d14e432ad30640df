// The fake API's domain imports: a .csv read and planned as domains-svc plans it (each row checked with
// the create body's schema, required fields, duplicates, ADD / SYNC), the plan answered for a dry run,
// and an import stored whose job runs one row per poll of GET .../imports/{id} (so a test sees it move).
// Named limits: the fake reads .csv only (an .xlsx is refused as IMPORT.INVALID_FILE) and serves the
// template as .csv only.
import { parse as parseCsv } from 'csv-parse/sync';
import {
  createDomainBodySchema,
  IMPORT_COLUMNS,
  parseHostname,
  IMPORT_ACTION_CREATES,
  type ImportAction,
  type DomainDetail,
  type DomainImport,
  type DomainImportPlan,
  type ImportCounts,
  type ImportMode,
  type ImportRow,
  type ImportRowError,
  type UploadedFile,
} from '@platform/contracts';
import { AppError } from './fake-errors';
import * as seed from './fake-data';

interface Partner {
  domains: DomainDetail[];
  settings: { required_fields: string[] };
}

const invalidFile = (message: string, reason: string) => new AppError('IMPORT.INVALID_FILE', 400, message, { reason });
const COLUMN_BY_HEADER = new Map<string, string>(IMPORT_COLUMNS.map((c) => [c.header, c.field]));

/** The template: the columns and two example rows (the service's, as CSV). */
export function templateCsv(): string {
  const lines: string[][] = [
    IMPORT_COLUMNS.map((c) => c.header),
    ...[0, 1].map((i) => IMPORT_COLUMNS.map((c) => c.example[i])),
  ];
  const quoted = (cell: string) => (/[",;\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell);
  return lines.map((cells) => cells.map(quoted).join(',')).join('\n') + '\n';
}

/** The file's data rows: line (the header is 1) and the cells of the template's columns. */
function rowsOf(file: UploadedFile): { line: number; cells: Record<string, string> }[] {
  if (!/\.csv$/i.test(file.filename)) throw invalidFile('The fake API reads .csv files only.', 'unsupported_type');
  let records: string[][];
  try {
    records = parseCsv(Buffer.from(file.data), { bom: true, delimiter: [',', ';'], relax_column_count: true });
  } catch (err) {
    throw invalidFile(`The CSV cannot be read: ${(err as Error).message}`, 'malformed');
  }
  const [header, ...body] = records;
  if (!header) throw invalidFile('The file is empty: it needs the header row of the template.', 'no_header');
  const fields = header.map((h) => COLUMN_BY_HEADER.get(h.trim().toLowerCase()));
  if (!fields.includes('domain'))
    throw invalidFile('The header row has no "domain" column (see the template).', 'no_domain_column');
  return body
    .map((cells, i) => ({
      line: i + 2,
      cells: Object.fromEntries(
        fields.flatMap((f, c) => (f && cells[c]?.trim() ? [[f, cells[c]] as [string, string]] : [])),
      ),
    }))
    .filter((r) => Object.keys(r.cells).length > 0);
}

function countsOf(rows: ImportRow[]): ImportCounts {
  const counts: ImportCounts = {
    rows: 0,
    create: 0,
    reactivate: 0,
    deactivate: 0,
    unchanged: 0,
    invalid: 0,
    pending: 0,
    done: 0,
    failed: 0,
  };
  for (const row of rows) {
    if (row.row !== null) counts.rows += 1;
    counts[row.outcome.toLowerCase() as 'create'] += 1;
    if (row.state !== 'SKIPPED') counts[row.state.toLowerCase() as 'pending'] += 1;
  }
  return counts;
}

interface Stored {
  import: DomainImport;
  rows: ImportRow[];
  /** The create body of each CREATE row, by row index. */
  inputs: Map<number, Record<string, unknown>>;
}

export class FakeImports {
  private readonly stored = new Map<string, Stored>();

  constructor(private readonly partner: Partner) {}

  /** What importing the file would do, row by row (domains-svc's planImport, in short). */
  private plan(file: UploadedFile, action: ImportAction, mode: ImportMode) {
    const inputs = new Map<number, Record<string, unknown>>();
    const firstLine = new Map<string, number>();
    const named = new Set<string>();
    const rows = rowsOf(file).map(({ line, cells }, index): ImportRow => {
      const written = parseHostname(cells.domain ?? '');
      const hostname = 'host' in written ? written.host : (cells.domain ?? '');
      if ('host' in written) named.add(written.host);
      const input = { ...cells, action: IMPORT_ACTION_CREATES[action].action };
      const errors: ImportRowError[] = [];
      const parsed = createDomainBodySchema.safeParse(input);
      if (!parsed.success)
        for (const issue of parsed.error.issues)
          errors.push({ field: issue.path.join('.'), code: 'VALIDATION.INVALID', message: issue.message });
      for (const field of this.partner.settings.required_fields)
        if (!cells[field]) errors.push({ field, code: 'VALIDATION.INVALID', message: 'is required' });
      const seen = firstLine.get(hostname);
      if (parsed.success && seen !== undefined)
        errors.push({ field: 'domain', code: 'IMPORT.DUPLICATE_ROW', message: `the same domain as line ${seen}` });
      else if (parsed.success) firstLine.set(hostname, line);
      const base = { row: line, domain: hostname, errors };
      if (errors.length > 0) return { ...base, outcome: 'INVALID', state: 'SKIPPED', domain_id: null };
      const existing = this.partner.domains.find((d) => d.hostname === hostname);
      if (!existing) {
        inputs.set(index, input);
        return { ...base, outcome: 'CREATE', state: 'PENDING', domain_id: null };
      }
      const reactivate = mode === 'SYNC' && existing.status === 'INACTIVE';
      return {
        ...base,
        outcome: reactivate ? 'REACTIVATE' : 'UNCHANGED',
        state: reactivate ? 'PENDING' : 'SKIPPED',
        domain_id: existing.id,
      };
    });
    if (mode === 'SYNC')
      for (const d of this.partner.domains)
        if (d.status === 'ACTIVE' && !named.has(d.hostname))
          rows.push({
            row: null,
            domain: d.hostname,
            outcome: 'DEACTIVATE',
            state: 'PENDING',
            domain_id: d.id,
            errors: [],
          });
    return { rows, inputs };
  }

  /** POST .../imports: the plan (dry run, 200) or the stored import (202, QUEUED). */
  create(body: Record<string, unknown>, userId: string): { status: number; result: DomainImportPlan | DomainImport } {
    const file = body.asset as UploadedFile;
    const action = body.action as ImportAction;
    const mode = body.mode as ImportMode;
    const { rows, inputs } = this.plan(file, action, mode);
    const common = { mode, action, file_name: file.filename, counts: countsOf(rows) };
    if (body.dry_run) return { status: 200, result: { dry_run: true, ...common, rows } };
    const id = `imp_${this.stored.size + 1}`;
    const created: DomainImport = {
      id,
      dry_run: false,
      status: 'QUEUED',
      ...common,
      created_by: { type: 'USER', id: userId },
      created_at: seed.NOW.toISOString(),
      finished_at: null,
    };
    this.stored.set(id, { import: created, rows, inputs });
    return { status: 202, result: structuredClone(created) };
  }

  private find(id: string): Stored {
    const found = this.stored.get(id);
    if (!found) throw new AppError('RESOURCE.NOT_FOUND', 404, 'The import does not exist.');
    return found;
  }

  /** GET .../imports/{id}: the job runs one more row first (a domain made meanwhile fails its CREATE). */
  get(id: string): DomainImport {
    const s = this.find(id);
    const index = s.rows.findIndex((r) => r.state === 'PENDING');
    if (index >= 0) this.run(s, index);
    const pending = s.rows.some((r) => r.state === 'PENDING');
    s.import.status = pending ? 'RUNNING' : 'COMPLETED';
    s.import.finished_at = pending ? null : seed.NOW.toISOString();
    s.import.counts = countsOf(s.rows);
    return structuredClone(s.import);
  }

  private run(s: Stored, index: number) {
    const row = s.rows[index];
    const domains = this.partner.domains;
    if (row.outcome === 'CREATE') {
      if (domains.some((d) => d.hostname === row.domain)) {
        row.state = 'FAILED';
        row.errors = [{ code: 'DOMAIN.ALREADY_EXISTS', message: 'The domain is already registered.' }];
        return;
      }
      const input = s.inputs.get(index)!;
      const d = { ...seed.domain(domains.length + 1, 'NEW', 0, row.domain), source: 'IMPORT' as const };
      d.email = String(input.account_email);
      domains.unshift(d);
      row.domain_id = d.id;
    } else {
      const d = domains.find((x) => x.id === row.domain_id)!;
      d.status = row.outcome === 'DEACTIVATE' ? 'INACTIVE' : 'ACTIVE';
    }
    row.state = 'DONE';
  }

  rows(id: string): ImportRow[] {
    return structuredClone(this.find(id).rows);
  }
}
