import type { EmailTemplateKind } from '@platform/contracts';

export interface TemplateText {
  subject: string;
  body: string;
}

const hello = '<p>{% if owner_first_name %}Hello {{ owner_first_name }},{% else %}Hello,{% endif %}</p>';
// The partner signs, once the platform knows their name.
const signature = '{% if partner_name %}<p>{{ partner_name }}</p>{% endif %}';
const snippet =
  '<p>Add this snippet to every page of the site, first in &lt;head&gt;:</p>\n<pre>{{ widget_snippet }}</pre>';
// Every owner e-mail leads to the account console (approval_url: by default the console's sign-in for the domain).
const consoleLink =
  '<p>Your account console, with the snippet and how to install it: <a href="{{ approval_url }}">{{ approval_url }}</a></p>';

/** The platform's wording of each owner e-mail: what a partner without a template of their own sends. */
export const DEFAULT_TEMPLATES: Record<EmailTemplateKind, TemplateText> = {
  INVITATION: {
    subject: 'Activate the privacy widget on {{ domain_name }}',
    body: [
      hello,
      '<p>You are invited to activate the privacy widget on <b>{{ domain_name }}</b>.</p>',
      snippet,
      '<p>The domain becomes active as soon as the widget loads for the first time.</p>',
      consoleLink,
      signature,
    ].join('\n'),
  },
  INTRO: {
    subject: 'Welcome to your privacy widget for {{ domain_name }}',
    body: [
      hello,
      '<p>Welcome! <b>{{ domain_name }}</b> now has a privacy widget for consent, data subject requests and legal documents.</p>',
      snippet,
      consoleLink,
      signature,
    ].join('\n'),
  },
  SCAN_REPORT: {
    subject: 'Scan report for {{ domain_name }}',
    body: [
      hello,
      '<p>We scanned <b>{{ domain_name }}</b> ({{ scan_pages }} page{% if scan_pages != "1" %}s{% endif %}). Scripts, cookies and frames found, by category:</p>',
      '<pre>{{ scan_summary }}</pre>',
      '<p>{% if scan_third_parties %}Third parties: {{ scan_third_parties }}{% else %}No known third parties were found.{% endif %}</p>',
      '{% if scan_cookies %}<p>Cookies:</p>\n<pre>{{ scan_cookies }}</pre>{% else %}<p>No cookies were found.</p>{% endif %}',
      consoleLink,
      signature,
    ].join('\n'),
  },
  ACTIVATION_REMINDER: {
    subject: 'Reminder: activate the privacy widget on {{ domain_name }}',
    body: [
      hello,
      '<p>The privacy widget on <b>{{ domain_name }}</b> is still not active, {{ reminder_day }} days after the site was added.</p>',
      snippet,
      '<p>The domain becomes active as soon as the widget loads for the first time.</p>',
      consoleLink,
      signature,
    ].join('\n'),
  },
};
