import type { DsarType } from '@platform/contracts';
import type { QueuedMail } from '@platform/mail';
import type { RequestRow } from './requests.repository';

export const TYPE_NAMES: Record<DsarType, string> = {
  access: 'access to their personal data',
  deletion: 'deletion of their personal data',
  correction: 'correction of their personal data',
  opt_out: 'opt-out of the sale or sharing of their personal data',
  portability: 'a copy of their personal data to take elsewhere (portability)',
};

const oneLine = (s: string) => s.replace(/[\r\n]+/g, ' ');
const day = (d: Date | null) => (d ? d.toISOString().slice(0, 10) : '-');

/** The link the gateway's page confirms; the token after # never reaches a server log or a Referer. */
export const confirmUrl = (widgetBaseUrl: string, token: string) =>
  `${widgetBaseUrl.replace(/\/+$/, '')}/widget/v1/requests/confirm#token=${token}`;

/** The one e-mail a request sends to the address typed in the form: its confirmation link. */
export function confirmationMail(
  r: { partnerId: string; email: string; type: DsarType; hostname: string },
  url: string,
): QueuedMail {
  const text = `Hello,

Someone (we hope you) asked ${r.hostname} for ${TYPE_NAMES[r.type]}, giving this e-mail address.
Confirm the request with this link (it works for 24 hours):
${url}

Nothing happens without it: if you did not ask, ignore this e-mail and the request expires.
`;
  return {
    partnerId: r.partnerId,
    kind: 'dsar-confirm',
    to: r.email,
    subject: oneLine(`Confirm your privacy request to ${r.hostname}`),
    text,
  };
}

const ownerOf = (row: RequestRow) => row.company.email as string | undefined;

/** The owner's e-mail of a verified request: what was asked, by whom, and by when. */
export function verifiedMail(row: RequestRow): QueuedMail | undefined {
  const to = ownerOf(row);
  if (!to) return undefined;
  const lines = [
    `A visitor of ${row.hostname} asks for ${TYPE_NAMES[row.type as DsarType]}; they confirmed their e-mail address.`,
    '',
    `Request id: ${row.id}`,
    `E-mail: ${row.email}`,
    ...(row.name ? [`Name: ${row.name}`] : []),
    `Due: ${day(row.due_at)} (${row.deadline_rule === 'US_STATE' ? '45 days, US state law' : '30 days, GDPR'})`,
    ...(row.message ? ['', 'Message:', row.message] : []),
    '',
    'Answer it in your account console, under Requests.',
  ];
  return {
    partnerId: row.partner_id,
    kind: 'dsar',
    to,
    subject: oneLine(`Data subject request (${row.type}) for ${row.hostname}, due ${day(row.due_at)}`),
    text: lines.join('\n'),
  };
}

/** The owner's reminder, `days` before the due date, or the overdue notice (days 0). */
export function reminderMail(row: RequestRow, days: number): QueuedMail | undefined {
  const to = ownerOf(row);
  if (!to) return undefined;
  const when = days === 0 ? 'is overdue' : `is due in ${days} day${days === 1 ? '' : 's'}`;
  return {
    partnerId: row.partner_id,
    kind: days === 0 ? 'dsar-overdue' : 'dsar-reminder',
    to,
    subject: oneLine(`Data subject request ${row.id} for ${row.hostname} ${when}`),
    text: `The ${row.type} request ${row.id} from ${row.email} ${when} (due ${day(row.due_at)}).\n\nAnswer it in your account console, under Requests.\n`,
  };
}

/** The reply to the requester when the request closes, with the owner's note. */
export function closingMail(row: RequestRow, note: string | undefined): QueuedMail {
  const outcome = row.status === 'COMPLETED' ? 'has been completed' : 'has been declined';
  return {
    partnerId: row.partner_id,
    kind: 'dsar-closed',
    to: row.email,
    subject: oneLine(`Your privacy request to ${row.hostname} ${outcome}`),
    text: `Hello,

Your request to ${row.hostname} for ${TYPE_NAMES[row.type as DsarType]} (${row.id}) ${outcome}.
${note ? `\nTheir reply:\n${note}\n` : ''}
`,
  };
}
