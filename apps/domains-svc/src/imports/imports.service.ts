import { randomUUID } from 'node:crypto';
import type { InternalCaller } from '@platform/auth';
import {
  IMPORT_ACTION_CREATES,
  isUuid,
  parseHostname,
  type DomainImport,
  type DomainImportPlan,
  type ImportBody,
  type ImportRow,
  type ImportRowError,
  type PaginationQuery,
} from '@platform/contracts';
import { inTransaction } from '@platform/db';
import { listPage, notFound } from '@platform/http';
import type { DomainsContext } from '../context';
import { readImportFile } from './import-file';
import { countRows, planImport, type PlannedRow } from './import-plan';
import {
  countImportRows,
  findActiveDomains,
  findDomainsByHostname,
  findImport,
  insertImport,
  listImportRows,
  type ImportRecord,
} from './imports.repository';

/**
 * POST /portal/domains/imports: reads the file (refusing it whole, before anything is stored, when
 * it cannot be read or is over the limits), plans every row, and either answers the plan
 * (dry_run) or stores the import and its rows in one transaction (the request's, with an
 * Idempotency-Key) for the job (import-rows.job.ts) to run.
 */
export async function acceptImport(
  ctx: DomainsContext,
  caller: InternalCaller,
  body: ImportBody,
): Promise<DomainImportPlan | DomainImport> {
  const fileRows = await readImportFile(body.asset);
  const plan = async (db = ctx.db) =>
    planImport({
      rows: fileRows,
      action: IMPORT_ACTION_CREATES[body.action].action,
      mode: body.mode,
      requiredFields: caller.requiredFields,
      known: await findDomainsByHostname(
        db,
        caller.partnerId,
        fileRows.flatMap((r) => {
          const parsed = parseHostname(r.cells.domain ?? '');
          return 'host' in parsed ? [parsed.host] : [];
        }),
      ),
      active: body.mode === 'SYNC' ? await findActiveDomains(db, caller.partnerId) : [],
    });
  const common = { mode: body.mode, action: body.action, file_name: body.asset.filename };
  if (body.dry_run) {
    const rows = await plan();
    return { dry_run: true, ...common, counts: countOf(rows), rows: rows.map(rowView) };
  }
  const id = randomUUID();
  return inTransaction(ctx.db, async (trx) => {
    const rows = await plan(trx);
    const pending = rows.some((r) => r.state === 'PENDING');
    const record = {
      id,
      partner_id: caller.partnerId,
      status: pending ? 'QUEUED' : 'COMPLETED',
      ...common,
      rows_total: fileRows.length,
      // What the job's creates run as: the create's Caller, as this request had it.
      caller: { requiredFields: caller.requiredFields, ...(caller.defaults ? { defaults: caller.defaults } : {}) },
      created_by_type: caller.user ? 'USER' : 'API_KEY',
      created_by_id: caller.user ? caller.user.id : caller.keyId,
      finished_at: pending ? null : new Date(),
    };
    await insertImport(trx, record, rows);
    return importView({ ...record, created_at: new Date() }, countOf(rows));
  });
}

const countOf = (rows: PlannedRow[]) => countRows(rows.map((r) => ({ ...r, inFile: r.line !== null })));

const rowView = (r: PlannedRow): ImportRow => ({
  row: r.line,
  domain: r.hostname,
  outcome: r.outcome,
  state: r.state,
  domain_id: r.domainId,
  errors: r.errors,
});

export async function getImport(ctx: DomainsContext, partnerId: string, id: string): Promise<DomainImport> {
  const record = await findOwnImport(ctx, partnerId, id);
  return importView(record, countRows(await countImportRows(ctx.db, record.id)));
}

export async function listRows(ctx: DomainsContext, partnerId: string, id: string, query: PaginationQuery) {
  const record = await findOwnImport(ctx, partnerId, id);
  const page = await listPage(query, (window) => listImportRows(ctx.db, record.id, window));
  return {
    meta: page.meta,
    result: page.items.map((r): ImportRow => ({
      row: r.line,
      domain: r.hostname,
      outcome: r.outcome as ImportRow['outcome'],
      state: r.state as ImportRow['state'],
      domain_id: r.domain_id,
      errors: r.errors as ImportRowError[],
    })),
  };
}

async function findOwnImport(ctx: DomainsContext, partnerId: string, id: string) {
  const record = isUuid(id) ? await findImport(ctx.db, partnerId, id.toLowerCase()) : undefined;
  if (!record) throw notFound('import');
  return record;
}

function importView(
  record: Pick<
    ImportRecord,
    | 'id'
    | 'status'
    | 'mode'
    | 'action'
    | 'file_name'
    | 'created_by_type'
    | 'created_by_id'
    | 'created_at'
    | 'finished_at'
  >,
  counts: DomainImport['counts'],
): DomainImport {
  return {
    id: record.id,
    dry_run: false,
    status: record.status as DomainImport['status'],
    mode: record.mode as DomainImport['mode'],
    action: record.action as DomainImport['action'],
    file_name: record.file_name,
    counts,
    created_by: { type: record.created_by_type as 'USER' | 'API_KEY', id: record.created_by_id },
    created_at: record.created_at.toISOString(),
    finished_at: record.finished_at ? record.finished_at.toISOString() : null,
  };
}
