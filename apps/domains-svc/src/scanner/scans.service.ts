import {
  FINDING_CATEGORIES,
  type ScanError,
  type ScanFindings,
  type ScanReport,
  type ScanRequester,
} from '@platform/contracts';
import { inTransaction } from '@platform/db';
import { AppError, notFound } from '@platform/http';
import { findDomainForUpdate } from '../domains/db/domain-reads.repository';
import { findLatestScan, insertQueuedScan, notifyScansDue, OPEN_SCAN_STATUSES, type ScanRow } from './scans.repository';
import type { DomainsContext } from '../context';
import { assertDomainId } from '../domains/domain/domain-rules';

/** A report's findings before the scan ran (or when it failed before reading a page). */
export const noFindings = (): ScanFindings => ({
  scripts: [],
  cookies: [],
  iframes: [],
  counts: Object.fromEntries(FINDING_CATEGORIES.map((c) => [c, 0])) as ScanFindings['counts'],
});

/** Scans made before iframes carried `marked` saw only iframes that loaded (a real src): unmarked. */
const withMarks = (f: ScanFindings): ScanFindings => ({
  ...f,
  iframes: f.iframes.map((i) => ({ ...i, marked: i.marked ?? false })),
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
    findings: withMarks((row.findings as ScanFindings | null) ?? noFindings()),
    errors: row.errors as ScanError[],
    created_at: row.created_at.toISOString(),
  };
}

/**
 * POST .../scan: queues a scan of the partner's domain and wakes the scanners. Scans of one domain are serialised (409
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
    // A scanner starts it at commit rather than at its next poll (a create's scan waits for the poll: no NOTIFY on the hot path).
    await notifyScansDue(trx);
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
