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
