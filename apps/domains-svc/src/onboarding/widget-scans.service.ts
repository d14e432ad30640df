import { randomUUID } from 'node:crypto';
import {
  createDomainBodySchema,
  type OnboardingPartner,
  type ScanFindings,
  type ScanStatus,
  type WidgetScanBody,
  type WidgetScanView,
} from '@platform/contracts';
import { SharedTransaction } from '@platform/db';
import { AppError, notFound } from '@platform/http';
import type { DomainsContext } from '../context';
import { findDomainForUpdate } from '../domains/db/domain-reads.repository';
import { createDomain } from '../domains/domain/create-domain.service';
import { findLatestScan, insertQueuedScan, notifyScansDue, OPEN_SCAN_STATUSES } from '../scanner/scans.repository';
import { reportWidgetScans } from '../scanner/widget-scan-report';
import { widgetScanSummaryOf } from '../scanner/widget-scan-summary';
import { findWidgetScan, insertWidgetScan } from '../scanner/widget-scans.repository';
import { findPartnerDomainId, onboardingCaller } from './onboarding-partner';
import { hashToken, newToken } from '@platform/auth';

/** The partner's create settings apply to its lead, but for required fields: a lead is no more than an address. */
const leadCaller = (partner: OnboardingPartner) => ({
  ...onboardingCaller(partner, 'WIDGET_SCAN').caller,
  requiredFields: [],
});

/**
 * The partner's domain of the hostname: made when it has none, as the partner's lead (source
 * WIDGET_SCAN, action SCAN: its scan is queued by the create itself, requested by WIDGET_SCAN, so
 * the report goes to the visitor). A create that lost a race to another visitor finds the winner's.
 */
async function leadDomain(ctx: DomainsContext, partner: OnboardingPartner, body: WidgetScanBody): Promise<string> {
  const find = () => findPartnerDomainId(ctx.db, partner.id, body.url);
  const existing = await find();
  if (existing) return existing;
  const create = createDomainBodySchema.parse({
    domain: body.url,
    company_name: body.url,
    account_email: body.email,
    action: 'SCAN',
  });
  try {
    return (await createDomain(ctx, leadCaller(partner), create, { scan: 'WIDGET_SCAN' })).id;
  } catch (err) {
    const raced = err instanceof AppError && err.code === 'DOMAIN.ALREADY_EXISTS' ? await find() : undefined;
    if (!raced) throw err;
    return raced;
  }
}

/**
 * The scan a visitor's request joins: the domain's open scan, or one that ended less than
 * minIntervalMs ago (a site is not scanned again for every visitor), else a new one. The domain's
 * row lock orders concurrent requests, so they agree on one scan.
 */
async function scanToJoin(ctx: DomainsContext, partnerId: string, domainId: string, minIntervalMs: number, now: Date) {
  await findDomainForUpdate(ctx.db, partnerId, domainId);
  const latest = await findLatestScan(ctx.db, partnerId, domainId);
  const open = latest && (OPEN_SCAN_STATUSES as readonly string[]).includes(latest.status);
  const recent = latest?.finished_at && now.getTime() - latest.finished_at.getTime() < minIntervalMs;
  if (latest && (open || recent)) return latest;
  const queued = await insertQueuedScan(ctx.db, { partnerId, domainId, requestedBy: 'WIDGET_SCAN' });
  return queued ?? (await findLatestScan(ctx.db, partnerId, domainId))!;
}

/**
 * A visitor's scan through the scan widget, in one transaction: the partner's lead domain (made
 * if needed), the scan it joins, and the request (its status token kept only as a hash, the
 * visitor's address until the report is sent). A scan that already completed e-mails its report
 * at once; any other does when it ends (scan-completion.ts). The scanners are woken at commit.
 */
export async function startWidgetScan(
  ctx: DomainsContext,
  partner: OnboardingPartner,
  body: WidgetScanBody,
  minIntervalMs: number,
  now = new Date(),
): Promise<{ token: string; hostname: string; status: ScanStatus }> {
  const token = newToken();
  const shared = new SharedTransaction(ctx.db);
  try {
    const scan = await shared.run(async () => {
      const domainId = await leadDomain(ctx, partner, body);
      const joined = await scanToJoin(ctx, partner.id, domainId, minIntervalMs, now);
      const request = { partnerId: partner.id, scanId: joined.id, domainId, hostname: body.url, email: body.email };
      await insertWidgetScan(ctx.db, { id: randomUUID(), tokenHash: hashToken(token), ...request });
      if (joined.status === 'completed') {
        const report = { pages: joined.pages as string[], findings: joined.findings as ScanFindings };
        await reportWidgetScans(ctx.db, ctx.settings, joined, report, now);
      }
      await notifyScansDue(ctx.db);
      return joined;
    });
    await shared.commit();
    return { token, hostname: body.url, status: scan.status as ScanStatus };
  } catch (err) {
    await shared.rollback();
    throw err;
  }
}

/** A widget scan by its token: its status, and once completed the summary the widget shows. */
export async function readWidgetScan(
  ctx: Pick<DomainsContext, 'db'>,
  partnerId: string,
  token: string,
): Promise<WidgetScanView> {
  const row = await findWidgetScan(ctx.db, partnerId, hashToken(token));
  if (!row) throw notFound('scan');
  const status = row.status as WidgetScanView['status'];
  const summary = status === 'completed' && row.findings ? widgetScanSummaryOf(row.pages, row.findings) : null;
  return { hostname: row.hostname, status, summary };
}
