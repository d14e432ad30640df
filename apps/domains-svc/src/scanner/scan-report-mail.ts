import type { QueuedMail } from '@platform/mail';
import { escapeHtml, greeting } from '../domains/domain/mail-templates';

/** What the scan report e-mail says: the counts per category and the third parties found. */
export interface ScanReportMailInput {
  partnerId: string;
  to: string;
  hostname: string;
  firstName?: string | null;
  pages: number;
  counts: Record<string, number>;
  vendors: string[];
  cookies: { name: string; category: string; vendor: string | null }[];
}

/** The report of a finished SCAN to the owner: what the site uses, and that the widget manages it. */
export function scanReportMail(m: ScanReportMailInput): QueuedMail {
  const counts = Object.entries(m.counts).map(([category, n]) => `${category}: ${n}`);
  const cookies = m.cookies.map((c) => `- ${c.name} (${c.category}${c.vendor ? `, ${c.vendor}` : ''})`);
  const text = [
    greeting(m.firstName),
    '',
    `We scanned ${m.hostname} (${m.pages} page${m.pages === 1 ? '' : 's'}). Scripts, cookies and frames found, by category:`,
    ...counts.map((line) => `- ${line}`),
    '',
    m.vendors.length > 0 ? `Third parties: ${m.vendors.join(', ')}` : 'No known third parties were found.',
    '',
    m.cookies.length > 0 ? 'Cookies:' : 'No cookies were found.',
    ...cookies,
  ].join('\n');
  const html =
    `<p>${escapeHtml(greeting(m.firstName))}</p><p>We scanned <b>${escapeHtml(m.hostname)}</b> (${m.pages} pages).</p>` +
    `<ul>${counts.map((line) => `<li>${escapeHtml(line)}</li>`).join('')}</ul>` +
    `<p>${escapeHtml(m.vendors.length > 0 ? `Third parties: ${m.vendors.join(', ')}` : 'No known third parties were found.')}</p>` +
    `<ul>${cookies.map((line) => `<li>${escapeHtml(line.slice(2))}</li>`).join('')}</ul>`;
  return {
    partnerId: m.partnerId,
    kind: 'scan-report',
    to: m.to,
    subject: `Scan report for ${m.hostname}`,
    text,
    html,
  };
}
