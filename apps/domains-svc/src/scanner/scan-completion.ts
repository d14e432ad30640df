import { propertyUpdatedEvent, type EventMessage, type EventPayload } from '@platform/contracts';
import { inTransaction } from '@platform/db';
import { enqueueMail } from '@platform/mail';
import type { DomainsDatabase, DomainsDb } from '../db/tables';
import { canMove, STATUS_MOVES } from '../status';
import {
  finishScan,
  lockScannedDomain,
  markDomainScanned,
  saveScanFeed,
  type ScanOutcome,
  type ScanRow,
} from './scans.repository';
import { propertyEntityData, writeDomainEvents } from '../domains/events/domain-events.writer';
import type { DomainsContext } from '../context';
import { inviteInTransaction, pushMerchantLinks } from '../domains/domain/lifecycle.service';
import { findOwnerMailDomain, ownerMail, type OwnerMailSettings } from '../domains/mail/owner-mail';
import { scanReportValues } from './scan-report-mail';
import { dataCollectionOf, widgetCookiesOf } from './scan-feed';
import { reportWidgetScans } from './widget-scan-report';
import { vendorsOf } from './widget-scan-summary';

/** What a scan's continuation did (tests and logs). */
export interface ScanCompletion {
  stored: boolean;
  scanned?: boolean;
  invited?: boolean;
  feedChanged?: boolean;
}

type ScannedDomain = NonNullable<Awaited<ReturnType<typeof lockScannedDomain>>>;

/**
 * Ends a scan in one transaction, with the domain locked: stores the report (only if this claim
 * still owns the scan); when it completed, feeds the findings into the property's widget settings
 * (property.updated when they changed: a new consent revision), makes the scanned move (NEW ->
 * SCANNED) and e-mails the report to the owner (SCAN) and to the scan widget's visitors waiting for it. A SCAN_INVITE continues with the invite
 * operation (INVITED + the invitation), even when the site could not be read: onboarding does not
 * wait for a site that is down. A domain deleted meanwhile gets nothing.
 */
export async function completeScan(
  ctx: Pick<DomainsContext, 'db' | 'settings' | 'merchants'>,
  scan: ScanRow,
  outcome: ScanOutcome,
  now: Date,
): Promise<ScanCompletion> {
  return inTransaction(ctx.db, async (trx): Promise<ScanCompletion> => {
    const domain = await lockScannedDomain(trx, scan.partner_id, scan.domain_id);
    if (!domain) return { stored: false };
    const stored = await finishScan(trx, scan, outcome, now);
    if (!stored) return { stored: false };

    const result: ScanCompletion = { stored: true, scanned: false, invited: false, feedChanged: false };
    const messages: EventMessage[] =
      outcome.status === 'completed' ? await applyFindings(trx, ctx.settings, scan, domain, outcome, result) : [];
    const statusNow = result.scanned ? STATUS_MOVES.scanned.to : domain.status;
    if (scan.requested_by === 'SCAN_INVITE' && canMove('inviteAfterScan', statusNow)) {
      messages.push(
        ...(await inviteInTransaction(ctx, trx, scan.partner_id, domain.id, { send_intro: false })).messages,
      );
      result.invited = true;
    }
    await pushMerchantLinks(ctx, trx, domain, messages);
    return result;
  });
}

/** A completed scan's effects: the widget's feed, the scanned move, their events, and a SCAN's report e-mail. */
async function applyFindings(
  trx: DomainsDatabase,
  settings: OwnerMailSettings,
  scan: ScanRow,
  domain: ScannedDomain,
  outcome: ScanOutcome,
  result: ScanCompletion,
): Promise<EventMessage[]> {
  const feed = {
    cookies: widgetCookiesOf(outcome.findings),
    dataCollection: dataCollectionOf(domain.hostname, outcome.findings),
  };
  const events: EventPayload[] = [];
  const property = await saveScanFeed(trx, domain.property_id, feed);
  if (property) {
    events.push(
      propertyUpdatedEvent(
        { cookies: feed.cookies, data_collection: feed.dataCollection },
        propertyEntityData(property),
      ),
    );
    result.feedChanged = true;
  }
  result.scanned = await markDomainScanned(trx, domain.id);
  const messages = await writeDomainEvents(
    trx,
    scan.partner_id,
    domain.id,
    events,
    result.scanned ? { kind: 'scanned' } : undefined,
  );
  if (scan.requested_by === 'SCAN')
    await enqueueMail<DomainsDb>(trx, await reportMail(trx, settings, scan, outcome, feed.cookies));
  // The scan widget's visitors waiting for this scan get the report too (whoever asked for it).
  await reportWidgetScans(trx, settings, scan, outcome, new Date());
  return messages;
}

/** The owner's report of a SCAN: counts, the vendors behind scripts and cookies, the cookies as the widget lists them. */
async function reportMail(
  trx: DomainsDatabase,
  settings: OwnerMailSettings,
  scan: ScanRow,
  outcome: ScanOutcome,
  cookies: ReturnType<typeof widgetCookiesOf>,
) {
  const vendors = vendorsOf(outcome.findings);
  const owner = (await findOwnerMailDomain(trx, scan.partner_id, scan.domain_id))!;
  const values = scanReportValues({ pages: outcome.pages.length, counts: outcome.findings.counts, vendors, cookies });
  return [await ownerMail(trx, settings, 'SCAN_REPORT', 'scan-report', owner, values)];
}
