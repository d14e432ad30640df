import type { ScanFindings } from '@platform/contracts';
import { enqueueMail } from '@platform/mail';
import type { DomainsDatabase, DomainsDb } from '../db/tables';
import {
  findOwnerMailDomain,
  ownerValues,
  renderPartnerMail,
  type OwnerMailDomain,
  type OwnerMailSettings,
} from '../domains/mail/owner-mail';
import { widgetCookiesOf } from './scan-feed';
import { scanReportValues } from './scan-report-mail';
import { vendorsOf } from './widget-scan-summary';
import { takeUnreported } from './widget-scans.repository';

/** The owner's details are the owner's: a visitor who is someone else gets the report without them. */
const asSeenBy = (domain: OwnerMailDomain, to: string): OwnerMailDomain =>
  to === domain.owner_email
    ? domain
    : { ...domain, owner_first_name: null, owner_last_name: null, company_name: domain.hostname };

/**
 * E-mails a completed scan's report to the scan widget's visitors waiting for it (once each: their
 * rows are marked in the caller's transaction), with the partner's SCAN_REPORT template.
 */
export async function reportWidgetScans(
  trx: DomainsDatabase,
  settings: OwnerMailSettings,
  scan: { id: string; partner_id: string; domain_id: string },
  report: { pages: readonly string[]; findings: ScanFindings },
  now: Date,
): Promise<void> {
  const recipients = await takeUnreported(trx, scan.id, now);
  if (recipients.length === 0) return;
  const domain = await findOwnerMailDomain(trx, scan.partner_id, scan.domain_id);
  if (!domain) return;
  const facts = scanReportValues({
    pages: report.pages.length,
    counts: report.findings.counts,
    vendors: vendorsOf(report.findings),
    cookies: widgetCookiesOf(report.findings),
  });
  const mails = [];
  for (const to of recipients) {
    const values = { ...ownerValues(asSeenBy(domain, to), settings), ...facts };
    const mail = await renderPartnerMail(trx, scan.partner_id, 'SCAN_REPORT', values);
    mails.push({ partnerId: scan.partner_id, kind: 'widget-scan-report', to, ...mail });
  }
  await enqueueMail<DomainsDb>(trx, mails);
}
