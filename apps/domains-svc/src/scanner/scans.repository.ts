import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import { sql } from '@platform/db';
import { claimWithLease, type SqlExecutor } from '@platform/jobs';
import type { ScanError, ScanFindings, ScanRequester } from '@platform/contracts';
import type { DomainsDb, ScansTable } from '../db/tables';
import { STATUS_MOVES } from '../status';

export type ScanRow = Selectable<ScansTable>;

/** The statuses of a scan not yet ended: at most one per domain (index scans_one_open). */
export const OPEN_SCAN_STATUSES = ['queued', 'running'] as const;

/**
 * Queues a scan of the domain unless one is queued or running already (then undefined): the
 * partial unique index makes concurrent requests agree on one.
 */
export async function insertQueuedScan(
  db: Kysely<DomainsDb>,
  scan: { partnerId: string; domainId: string; requestedBy: ScanRequester },
): Promise<ScanRow | undefined> {
  const { rows } = await sql<ScanRow>`
    INSERT INTO scans (id, partner_id, domain_id, requested_by)
    VALUES (${randomUUID()}, ${scan.partnerId}, ${scan.domainId}, ${scan.requestedBy})
    ON CONFLICT (domain_id) WHERE status IN ('queued', 'running') DO NOTHING
    RETURNING *`.execute(db);
  return rows[0];
}

/** NOTIFY channel that wakes the scanners when a scan is queued by the API (they poll SCANNER_POLL_MS too). */
export const SCANS_DUE_CHANNEL = 'domains_scans_due';

/** Wakes the scanners at commit (they LISTEN on the channel). */
export const notifyScansDue = (trx: Kysely<DomainsDb>) => sql`SELECT pg_notify(${SCANS_DUE_CHANNEL}, '')`.execute(trx);

/** The hostname the worker scans; undefined when the domain was deleted meanwhile. */
export async function findScanHostname(db: Kysely<DomainsDb>, domainId: string): Promise<string | undefined> {
  const row = await db.selectFrom('domains').select('hostname').where('id', '=', domainId).executeTakeFirst();
  return row?.hostname;
}

/** The domain's latest scan (any status), or undefined when it was never scanned. */
export async function findLatestScan(
  db: Kysely<DomainsDb>,
  partnerId: string,
  domainId: string,
): Promise<ScanRow | undefined> {
  return db
    .selectFrom('scans')
    .selectAll()
    .where('domain_id', '=', domainId)
    .where('partner_id', '=', partnerId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/**
 * Claims up to `limit` scans to run: queued ones, and running ones whose worker's lease ran out
 * (a killed worker), a fair share per partner (fairShare). Each claim counts an attempt; the attempt number is the claim's fencing
 * token (see finishScan).
 */
export async function claimScans(
  db: SqlExecutor,
  options: { now: Date; leaseMs: number; limit: number },
): Promise<ScanRow[]> {
  return claimWithLease<ScanRow>(db, {
    table: 'scans',
    dueColumn: 'due_at',
    leaseColumn: 'lease_until',
    now: options.now,
    leaseMs: options.leaseMs,
    limit: options.limit,
    where: sql`status IN ('queued', 'running')`,
    orderBy: fairShare(options.now),
    set: sql`status = 'running', attempts = attempts + 1, started_at = ${options.now}`,
  });
}

/**
 * A fair share of the workers between partners, as the gateway shares calls: first the scans with
 * the fewest of their partner's scans ahead (running now, or due before them), then those of the
 * partner served longest ago (never first), then the oldest. So one partner's long queue never
 * holds up another partner's next scan.
 */
const fairShare = (now: Date) => sql`
  (SELECT count(*) FROM scans ahead
   WHERE ahead.partner_id = scans.partner_id AND ahead.status IN ('queued', 'running') AND ahead.id <> scans.id
     AND (ahead.lease_until >= ${now} OR (ahead.due_at, ahead.id) < (scans.due_at, scans.id))),
  (SELECT max(served.started_at) FROM scans served WHERE served.partner_id = scans.partner_id) NULLS FIRST,
  due_at, id`;

export interface ScanOutcome {
  status: 'completed' | 'failed';
  mode: string | null;
  pages: string[];
  findings: ScanFindings;
  errors: ScanError[];
}

/**
 * Stores the outcome of the claim that ran it (same attempt, still running), or undefined when
 * the scan is no longer that claim's: its lease ran out and another worker took it up, or the
 * domain was deleted meanwhile.
 */
export async function finishScan(
  db: Kysely<DomainsDb>,
  scan: Pick<ScanRow, 'id' | 'attempts'>,
  outcome: ScanOutcome,
  now: Date,
): Promise<ScanRow | undefined> {
  return db
    .updateTable('scans')
    .set({
      status: outcome.status,
      mode: outcome.mode,
      pages: JSON.stringify(outcome.pages),
      findings: JSON.stringify(outcome.findings),
      errors: JSON.stringify(outcome.errors),
      finished_at: now,
      lease_until: null,
    })
    .where('id', '=', scan.id)
    .where('status', '=', 'running')
    .where('attempts', '=', scan.attempts)
    .returningAll()
    .executeTakeFirst();
}

/**
 * Continuous scanning: queues a SCHEDULE scan for up to `limit` domains whose property has
 * has_continuous_scanning on and whose latest scan started more than `intervalMs` ago (or that
 * were never scanned). Returns how many were queued.
 */
export async function queueScheduledScans(
  db: Kysely<DomainsDb>,
  options: { now: Date; intervalMs: number; limit: number },
): Promise<number> {
  const before = new Date(options.now.getTime() - options.intervalMs);
  const { rows } = await sql<{ id: string }>`
    INSERT INTO scans (id, partner_id, domain_id, requested_by, due_at, created_at)
    SELECT gen_random_uuid(), d.partner_id, d.id, 'SCHEDULE', ${options.now}, ${options.now}
    FROM domains d JOIN properties p ON p.id = d.property_id
    WHERE p.has_continuous_scanning AND d.status <> 'INACTIVE'
      AND NOT EXISTS (SELECT 1 FROM scans s WHERE s.domain_id = d.id AND s.created_at > ${before})
    ORDER BY d.created_at
    LIMIT ${options.limit}
    ON CONFLICT (domain_id) WHERE status IN ('queued', 'running') DO NOTHING
    RETURNING id`.execute(db);
  return rows.length;
}

/** What a scan's continuation needs of its domain, locked for the status move; undefined when the domain is gone. */
export async function lockScannedDomain(db: Kysely<DomainsDb>, partnerId: string, domainId: string) {
  return db
    .selectFrom('domains as d')
    .innerJoin('companies as c', 'c.id', 'd.company_id')
    .select(['d.id', 'd.hostname', 'd.status', 'd.property_id', 'd.merchants', 'c.owner_email', 'c.owner_first_name'])
    .where('d.id', '=', domainId)
    .where('d.partner_id', '=', partnerId)
    .forUpdate('d')
    .executeTakeFirst();
}

/** The scanned move (NEW -> SCANNED; a later status never moves back, see status.ts); whether it moved. */
export async function markDomainScanned(db: Kysely<DomainsDb>, domainId: string): Promise<boolean> {
  const row = await db
    .updateTable('domains')
    .set({ status: STATUS_MOVES.scanned.to, updated_at: sql`now()` })
    .where('id', '=', domainId)
    .where('status', 'in', STATUS_MOVES.scanned.from)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Stores what the widget shows of the scan on the property when it differs from what is stored
 * (compared as jsonb: key order does not count); the property as events show it, or undefined
 * when nothing changed.
 */
export async function saveScanFeed(
  db: Kysely<DomainsDb>,
  propertyId: string,
  feed: { cookies: unknown; dataCollection: unknown },
) {
  const cookies = JSON.stringify(feed.cookies);
  const dataCollection = JSON.stringify(feed.dataCollection);
  return db
    .updateTable('properties')
    .set({ scan_cookies: cookies, scan_data_collection: dataCollection, updated_at: sql`now()` })
    .where('id', '=', propertyId)
    .where(
      sql<boolean>`(scan_cookies IS DISTINCT FROM ${cookies}::jsonb OR scan_data_collection IS DISTINCT FROM ${dataCollection}::jsonb)`,
    )
    .returningAll()
    .executeTakeFirst();
}

/** A stopping worker hands its scan back at once (same claim only), instead of leaving it until its lease ends. */
export async function releaseScan(db: Kysely<DomainsDb>, scan: Pick<ScanRow, 'id' | 'attempts'>) {
  await db
    .updateTable('scans')
    .set({ lease_until: null })
    .where('id', '=', scan.id)
    .where('status', '=', 'running')
    .where('attempts', '=', scan.attempts)
    .execute();
}
