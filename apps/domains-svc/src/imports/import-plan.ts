import {
  createDomainBodySchema,
  parseHostname,
  type DomainAction,
  type ImportCounts,
  type ImportMode,
  type ImportOutcome,
  type ImportRowError,
  type ImportRowState,
} from '@platform/contracts';
import { AppError } from '@platform/http';
import { assertRequiredFields } from '../domains/domain/domain-rules';
import type { FileRow } from './import-file';

/** A partner's domain as the plan compares it with the file. */
export interface KnownDomain {
  id: string;
  hostname: string;
  status: string;
}

/** One row of the plan: a line of the file (null: a domain SYNC deactivates) and what it does. */
export interface PlannedRow {
  line: number | null;
  hostname: string;
  outcome: ImportOutcome;
  state: ImportRowState;
  /** CREATE: the create-domain body as read from the file (the job parses it again with the same schema). */
  input: Record<string, unknown> | null;
  domainId: string | null;
  errors: ImportRowError[];
}

export interface PlanRequest {
  rows: FileRow[];
  action: DomainAction;
  mode: ImportMode;
  requiredFields: readonly string[];
  /** The partner's domains whose hostnames the file names (by hostname). */
  known: ReadonlyMap<string, KnownDomain>;
  /** SYNC: the partner's ACTIVE domains, those the file does not name are deactivated. */
  active: readonly KnownDomain[];
}

/**
 * What an import does, decided from the file and the partner's domains without changing anything
 * (dry_run answers it; a real import stores it for the job): each row is checked with the
 * create-domain body's own schema and the partner's required fields; a domain named twice is an
 * error on its later lines. ADD creates unknown domains; SYNC also reactivates INACTIVE domains in
 * the file and deactivates ACTIVE ones not in it (the only status the deactivate move allows).
 */
export function planImport({ rows, action, mode, requiredFields, known, active }: PlanRequest): PlannedRow[] {
  const firstLine = new Map<string, number>();
  const named = new Set<string>();
  const planned = rows.map((row): PlannedRow => {
    const input: Record<string, unknown> = { ...row.cells, action };
    const errors = [...row.errors];
    const written = parseHostname(row.cells.domain ?? '');
    const hostname = 'host' in written ? written.host : (row.cells.domain ?? '');
    if ('host' in written) named.add(written.host);
    const parsed = createDomainBodySchema.safeParse(input);
    if (!parsed.success) {
      // A refused cell is not read, so its field's own "is required" would only repeat it.
      const refused = new Set(row.errors.map((e) => e.field));
      for (const issue of parsed.error.issues) {
        const field = issue.path.map(String).join('.');
        if (!refused.has(field)) errors.push({ field, code: 'VALIDATION.INVALID', message: issue.message });
      }
    } else {
      errors.push(...requiredFieldErrors(parsed.data, requiredFields));
      const seen = firstLine.get(parsed.data.domain);
      if (seen !== undefined)
        errors.push({ field: 'domain', code: 'IMPORT.DUPLICATE_ROW', message: `the same domain as line ${seen}` });
      else firstLine.set(parsed.data.domain, row.line);
    }
    if (errors.length > 0)
      return { line: row.line, hostname, outcome: 'INVALID', state: 'SKIPPED', input: null, domainId: null, errors };
    const existing = known.get(hostname);
    if (!existing)
      return { line: row.line, hostname, outcome: 'CREATE', state: 'PENDING', input, domainId: null, errors };
    const reactivate = mode === 'SYNC' && existing.status === 'INACTIVE';
    return {
      line: row.line,
      hostname,
      outcome: reactivate ? 'REACTIVATE' : 'UNCHANGED',
      state: reactivate ? 'PENDING' : 'SKIPPED',
      input: null,
      domainId: existing.id,
      errors,
    };
  });
  if (mode === 'SYNC') {
    for (const domain of active) {
      if (named.has(domain.hostname)) continue;
      planned.push({
        line: null,
        hostname: domain.hostname,
        outcome: 'DEACTIVATE',
        state: 'PENDING',
        input: null,
        domainId: domain.id,
        errors: [],
      });
    }
  }
  return planned;
}

function requiredFieldErrors(body: Record<string, unknown>, required: readonly string[]): ImportRowError[] {
  try {
    assertRequiredFields(body, required);
    return [];
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    const issues = (err.data?.issues ?? []) as { path: string; message: string }[];
    return issues.map((i) => ({
      field: i.path.replace(/^body\./, ''),
      code: 'VALIDATION.INVALID',
      message: i.message,
    }));
  }
}

/** The counts of a plan or an import: rows of the file, per outcome and per state. */
export function countRows(
  rows: readonly { inFile: boolean; outcome: string; state: string; n?: number }[],
): ImportCounts {
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
    const n = row.n ?? 1;
    if (row.inFile) counts.rows += n;
    counts[row.outcome.toLowerCase() as Lowercase<ImportOutcome>] += n;
    if (row.state !== 'SKIPPED') counts[row.state.toLowerCase() as 'pending' | 'done' | 'failed'] += n;
  }
  return counts;
}
