import { sql, type Kysely } from '@platform/db';
import { claimWithLease } from '@platform/jobs';
import type { DomainsDb } from '../db/tables';
import type { KnownDomain, PlannedRow } from './import-plan';

type Db = Kysely<DomainsDb>;

/** The partner's domains of these hostnames, by hostname. */
export async function findDomainsByHostname(db: Db, partnerId: string, hostnames: string[]) {
  const known = new Map<string, KnownDomain>();
  if (hostnames.length === 0) return known;
  const rows = await db
    .selectFrom('domains')
    .select(['id', 'hostname', 'status'])
    .where('partner_id', '=', partnerId)
    .where('hostname', 'in', hostnames)
    .execute();
  for (const row of rows) known.set(row.hostname, row);
  return known;
}

/** The partner's ACTIVE domains (what a SYNC may deactivate). */
export const findActiveDomains = (db: Db, partnerId: string): Promise<KnownDomain[]> =>
  db
    .selectFrom('domains')
    .select(['id', 'hostname', 'status'])
    .where('partner_id', '=', partnerId)
    .where('status', '=', 'ACTIVE')
    .execute();

export interface NewImport {
  id: string;
  partner_id: string;
  status: string;
  mode: string;
  action: string;
  file_name: string;
  rows_total: number;
  caller: unknown;
  created_by_type: string;
  created_by_id: string;
  finished_at: Date | null;
}

/** The import and its planned rows, in the caller's transaction (the accepting request's). */
export async function insertImport(db: Db, row: NewImport, rows: PlannedRow[]) {
  await db
    .insertInto('imports')
    .values({ ...row, caller: JSON.stringify(row.caller) })
    .execute();
  // ~11 parameters a row: 1,000 rows a statement stays far under PostgreSQL's 65,535.
  for (let i = 0; i < rows.length; i += 1000) {
    await db
      .insertInto('import_rows')
      .values(
        rows.slice(i, i + 1000).map((r) => ({
          import_id: row.id,
          line: r.line,
          hostname: r.hostname,
          outcome: r.outcome,
          state: r.state,
          input: r.input === null ? null : JSON.stringify(r.input),
          domain_id: r.domainId,
          errors: JSON.stringify(r.errors),
        })),
      )
      .execute();
  }
}

export const findImport = (db: Db, partnerId: string, id: string) =>
  db.selectFrom('imports').selectAll().where('partner_id', '=', partnerId).where('id', '=', id).executeTakeFirst();
export type ImportRecord = NonNullable<Awaited<ReturnType<typeof findImport>>>;

/** The import's rows counted per kind (whether in the file, outcome, state). */
export const countImportRows = (db: Db, importId: string) =>
  db
    .selectFrom('import_rows')
    .select((eb) => [sql<boolean>`line IS NOT NULL`.as('inFile'), 'outcome', 'state', eb.fn.countAll<number>().as('n')])
    .where('import_id', '=', importId)
    .groupBy([sql`line IS NOT NULL`, 'outcome', 'state'])
    .execute()
    .then((rows) => rows.map((r) => ({ ...r, n: Number(r.n) })));

/** A page of the import's rows: the file's in line order, then SYNC's deactivations. */
export const listImportRows = (db: Db, importId: string, window: { offset: number; limitPlusOne: number }) =>
  db
    .selectFrom('import_rows')
    .select(['line', 'hostname', 'outcome', 'state', 'domain_id', 'errors'])
    .where('import_id', '=', importId)
    .orderBy('id')
    .offset(window.offset)
    .limit(window.limitPlusOne)
    .execute();

/** A row the job holds: what to do, for whom (its import's caller). */
export interface ClaimedRow {
  id: string;
  import_id: string;
  outcome: string;
  input: Record<string, unknown> | null;
  domain_id: string | null;
  attempts: number;
  partner_id: string;
  /** The import's action (ImportAction). */
  action: string;
  caller: { requiredFields: string[]; defaults?: { product?: string; priceList?: string } };
}

/** Up to `limit` PENDING rows, leased for leaseMs (FOR UPDATE SKIP LOCKED; a row never finished is due again when its lease ends). */
export const claimImportRows = (db: Db, limit: number, leaseMs: number) =>
  claimWithLease<ClaimedRow>(db, {
    table: 'import_rows',
    dueColumn: 'due_at',
    leaseMs,
    limit,
    where: sql`state = 'PENDING'`,
    orderBy: sql`due_at, id`,
    set: sql`attempts = attempts + 1`,
    select: sql`SELECT claimed.id, claimed.import_id, claimed.outcome, claimed.input, claimed.domain_id, claimed.attempts,
        i.partner_id, i.action, i.caller FROM claimed JOIN imports i ON i.id = claimed.import_id ORDER BY claimed.id`,
  });

/** The imports of these rows are RUNNING (while QUEUED). */
export async function markImportsRunning(db: Db, importIds: string[]) {
  await db
    .updateTable('imports')
    .set({ status: 'RUNNING' })
    .where('id', 'in', importIds)
    .where('status', '=', 'QUEUED')
    .execute();
}

/**
 * Ends the row, only while it is PENDING: inside the transaction that makes its change, the row's
 * lock serialises two workers holding it (the second finds it ended and changes nothing).
 */
export async function finishRow(
  db: Db,
  id: string,
  end: { state: 'DONE' | 'FAILED'; domainId?: string | null; errors?: unknown[] },
): Promise<boolean> {
  const result = await db
    .updateTable('import_rows')
    .set({
      state: end.state,
      done_at: new Date(),
      ...(end.domainId ? { domain_id: end.domainId } : {}),
      ...(end.errors ? { errors: JSON.stringify(end.errors) } : {}),
    })
    .where('id', '=', id)
    .where('state', '=', 'PENDING')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The row is due again at once (a failure worth another attempt, or a worker stopping before it ran it). */
export async function releaseRows(db: Db, ids: string[]) {
  if (ids.length === 0) return;
  await db
    .updateTable('import_rows')
    .set({ due_at: new Date() })
    .where('id', 'in', ids)
    .where('state', '=', 'PENDING')
    .execute();
}

/** Imports with no PENDING row left are COMPLETED. */
export async function completeImports(db: Db, importIds: string[]) {
  if (importIds.length === 0) return;
  await sql`
    UPDATE imports i SET status = 'COMPLETED', finished_at = now()
    WHERE i.id = ANY(${importIds}::uuid[]) AND i.status IN ('QUEUED', 'RUNNING')
      AND NOT EXISTS (SELECT 1 FROM import_rows r WHERE r.import_id = i.id AND r.state = 'PENDING')`.execute(db);
}
