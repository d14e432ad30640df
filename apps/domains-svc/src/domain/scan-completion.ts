import { propertyUpdatedEvent, type EventMessage, type EventPayload } from '@platform/contracts';
import { inTransaction } from '@platform/db';
import { enqueueMail } from '@platform/mail';
import {
  finishScan,
  lockScannedDomain,
  markDomainScanned,
  saveScanFeed,
  type ScanOutcome,
  type ScanRow,
} from '../db/scans.repository';
import type { DomainsDb } from '../db/tables';
import { propertyEntityData, writeDomainEvents } from '../events/domain-events.writer';
import type { DomainsContext } from './context';
import { inviteInTransaction, pushMerchantLinks } from './lifecycle.service';
import { scanReportMail } from './mail-templates';
import { dataCollectionOf, widgetCookiesOf } from './scan-feed';

/** What a scan's continuation did (tests and logs). */
export interface ScanCompletion {
  stored: boolean;
  scanned?: boolean;
  invited?: boolean;
  feedChanged?: boolean;
}

/** Statuses a SCAN_INVITE's invitation still goes out from (a domain already invited or ACTIVE is left as it is). */
const INVITE_AFTER_SCAN_FROM = ['NEW', 'SCANNED'];

/**
 * Ends a scan in one transaction, with the domain locked: stores the report (only if this claim
 * still owns the scan); when it completed, feeds the findings into the property's widget settings
 * (property.updated when they changed: a new consent revision), moves the domain NEW -> SCANNED and
 * e-mails the report to the owner (SCAN). A SCAN_INVITE continues with the invite operation
 * (INVITED + the invitation), even when the site could not be read: onboarding does not wait for
 * a site that is down. A domain deleted meanwhile gets nothing.
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

    const messages: EventMessage[] = [];
    const result: ScanCompletion = { stored: true, scanned: false, invited: false, feedChanged: false };
    if (outcome.status === 'completed') {
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
      messages.push(
        ...(await writeDomainEvents(
          trx,
          scan.partner_id,
          domain.id,
          events,
          result.scanned ? { kind: 'scanned' } : undefined,
        )),
      );
      if (scan.requested_by === 'SCAN') {
        const vendors = [
          ...new Set(
            [...outcome.findings.scripts, ...outcome.findings.cookies]
              .map((f) => f.vendor)
              .filter((v): v is string => v !== null),
          ),
        ].sort();
        await enqueueMail<DomainsDb>(trx, [
          scanReportMail({
            partnerId: scan.partner_id,
            to: domain.owner_email,
            firstName: domain.owner_first_name,
            hostname: domain.hostname,
            pages: outcome.pages.length,
            counts: outcome.findings.counts,
            vendors,
            cookies: feed.cookies,
          }),
        ]);
      }
    }
    const statusNow = result.scanned ? 'SCANNED' : domain.status;
    if (scan.requested_by === 'SCAN_INVITE' && INVITE_AFTER_SCAN_FROM.includes(statusNow)) {
      messages.push(
        ...(await inviteInTransaction(ctx, trx, scan.partner_id, domain.id, { send_intro: false })).messages,
      );
      result.invited = true;
    }
    await pushMerchantLinks(ctx, trx, domain, messages);
    return result;
  });
}
