import {
  FINDING_CATEGORIES,
  type ScanError,
  type ScanFindings,
  type ScanReport,
  type ScanRequester,
} from '@platform/contracts';
import { inTransaction, type Kysely } from '@platform/db';
import { AppError, notFound } from '@platform/http';
import { findDomainForUpdate } from '../db/domain-reads.repository';
import { findLatestScan, insertQueuedScan, OPEN_SCAN_STATUSES, type ScanRow } from '../db/scans.repository';
import type { DomainsDb } from '../db/tables';
import type { DomainsContext } from './context';
import { assertDomainId } from './domain-rules';

/** A report's findings before the scan ran (or when it failed before reading a page). */
export const noFindings = (): ScanFindings => ({
  scripts: [],
  cookies: [],
  iframes: [],
  counts: Object.fromEntries(FINDING_CATEGORIES.map((c) => [c, 0])) as ScanFindings['counts'],
});

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toScanReport(row: ScanRow): ScanReport {
  return {
    id: row.id,
    domain_id: row.domain_id,
    status: row.status as ScanReport['status'],
    mode: (row.mode as ScanReport['mode']) ?? null,
    requested_by: row.requested_by as ScanRequester,
    started_at: iso(row.started_at),
    finished_at: iso(row.finished_at),
    pages: row.pages as string[],
    findings: (row.findings as ScanFindings | null) ?? noFindings(),
    errors: row.errors as ScanError[],
    created_at: row.created_at.toISOString(),
  };
}

/**
 * POST .../scan: queues a scan of the partner's domain. Scans of one domain are serialised (409
 * while one is queued or running) and rate limited (429 with Retry-After until minIntervalMs
 * after the last one ended), so a partner cannot make the scanner hammer a site.
 */
export async function requestScan(
  ctx: Pick<DomainsContext, 'db'>,
  partnerId: string,
  domainId: string,
  minIntervalMs: number,
  now = new Date(),
): Promise<ScanRow> {
  const id = assertDomainId(domainId);
  return inTransaction(ctx.db, async (trx) => {
    // The domain's row lock orders concurrent requests: each sees the scan the one before it queued.
    if (!(await findDomainForUpdate(trx, partnerId, id))) throw notFound('domain');
    const latest = await findLatestScan(trx, partnerId, id);
    if (latest && (OPEN_SCAN_STATUSES as readonly string[]).includes(latest.status)) {
      throw new AppError('DOMAIN.SCAN_IN_PROGRESS', undefined, { scan_id: latest.id, status: latest.status });
    }
    const waitMs = latest?.finished_at ? latest.finished_at.getTime() + minIntervalMs - now.getTime() : 0;
    if (waitMs > 0) {
      const seconds = Math.ceil(waitMs / 1000);
      throw new AppError(
        'RATE.LIMITED',
        `The domain was scanned less than ${Math.round(minIntervalMs / 1000)} s ago; retry after ${seconds} s.`,
        { retry_after: seconds },
        { 'Retry-After': String(seconds) },
      );
    }
    const queued = await insertQueuedScan(trx, { partnerId, domainId: id, requestedBy: 'API' });
    if (!queued) throw new AppError('DOMAIN.SCAN_IN_PROGRESS');
    return queued;
  });
}

/** GET .../scan: the latest report; 404 for a domain of another partner, or one never scanned. */
export async function latestScan(
  ctx: Pick<DomainsContext, 'db'>,
  partnerId: string,
  domainId: string,
): Promise<ScanRow> {
  const id = assertDomainId(domainId);
  const row = await findLatestScan(ctx.db, partnerId, id);
  if (!row) throw notFound('scan');
  return row;
}

/**
 * scan.requested (a create with action SCAN or SCAN_INVITE): queues the scan in the consumer's
 * transaction. A domain deleted meanwhile gets nothing; one with a scan queued or running
 * already keeps that one.
 */
export async function queueRequestedScan(
  trx: Kysely<DomainsDb>,
  partnerId: string,
  params: { domain_id: string; action: string },
) {
  const requestedBy: ScanRequester = params.action === 'SCAN_INVITE' ? 'SCAN_INVITE' : 'SCAN';
  const domain = await trx
    .selectFrom('domains')
    .select('id')
    .where('id', '=', params.domain_id)
    .where('partner_id', '=', partnerId)
    .executeTakeFirst();
  if (!domain) return undefined;
  return insertQueuedScan(trx, { partnerId, domainId: domain.id, requestedBy });
}
