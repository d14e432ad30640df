import type { QueuedMail } from '@platform/mail';
import { escapeHtml, greeting } from '../domains/domain/mail-templates';

export interface ReminderMailInput {
  partnerId: string;
  to: string;
  firstName?: string;
  day: number;
  hostname: string;
  widgetSnippet: string;
  approvalUrl: string;
}

/** The owner's reminder that the widget is not yet on the site, `day` days after the domain was added (kind reminder_day<N>). */
export function activationReminderMail(m: ReminderMailInput): QueuedMail {
  const text = [
    greeting(m.firstName),
    '',
    `The privacy widget on ${m.hostname} is still not active, ${m.day} days after the site was added.`,
    'Add this snippet to every page of the site, first in <head>:',
    '',
    m.widgetSnippet,
    '',
    `Then open ${m.approvalUrl}: the widget becomes active as soon as it loads for the first time.`,
  ].join('\n');
  const html =
    `<p>${escapeHtml(greeting(m.firstName))}</p>` +
    `<p>The privacy widget on <b>${escapeHtml(m.hostname)}</b> is still not active, ${m.day} days after the site was added.</p>` +
    `<p>Add this snippet to every page of the site, first in &lt;head&gt;:</p><pre>${escapeHtml(m.widgetSnippet)}</pre>` +
    `<p>Then open <a href="${escapeHtml(m.approvalUrl)}">${escapeHtml(m.approvalUrl)}</a>: the widget becomes active as soon as it loads for the first time.</p>`;
  return {
    partnerId: m.partnerId,
    kind: `reminder_day${m.day}`,
    to: m.to,
    subject: `Reminder: activate the privacy widget on ${m.hostname}`,
    text,
    html,
  };
}
