import type { QueuedMail } from '@platform/mail';

interface MailInput {
  partnerId: string;
  to: string;
  hostname: string;
  widgetSnippet: string;
  firstName?: string | null;
}

export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
export const greeting = (name?: string | null) => (name ? `Hello ${name},` : 'Hello,');

/** The invitation: the owner is asked to place the widget on the site (that activates the domain). */
export function inviteMail(m: MailInput): QueuedMail {
  const text = [
    greeting(m.firstName),
    '',
    `You are invited to activate the privacy widget on ${m.hostname}.`,
    'Add this snippet to every page of the site, just before </body>:',
    '',
    m.widgetSnippet,
    '',
    'The domain becomes active as soon as the widget loads for the first time.',
  ].join('\n');
  const html = `<p>${escapeHtml(greeting(m.firstName))}</p><p>You are invited to activate the privacy widget on <b>${escapeHtml(m.hostname)}</b>.</p><p>Add this snippet to every page of the site:</p><pre>${escapeHtml(m.widgetSnippet)}</pre>`;
  return {
    partnerId: m.partnerId,
    kind: 'invite',
    to: m.to,
    subject: `Activate the privacy widget on ${m.hostname}`,
    text,
    html,
  };
}

/** The partner's customized intro e-mail (send_intro). */
export function introMail(m: MailInput): QueuedMail {
  const text = [
    greeting(m.firstName),
    '',
    `Welcome! ${m.hostname} now has a privacy widget for consent, data subject requests and legal documents.`,
    'To switch it on, add this snippet to the pages of the site:',
    '',
    m.widgetSnippet,
  ].join('\n');
  const html = `<p>${escapeHtml(greeting(m.firstName))}</p><p>Welcome! <b>${escapeHtml(m.hostname)}</b> now has a privacy widget.</p><pre>${escapeHtml(m.widgetSnippet)}</pre>`;
  return {
    partnerId: m.partnerId,
    kind: 'intro',
    to: m.to,
    subject: `Welcome to your privacy widget for ${m.hostname}`,
    text,
    html,
  };
}

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
