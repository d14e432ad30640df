import { randomBytes } from 'node:crypto';
import type { DsarBody } from '@platform/contracts';
import { inTransaction, type Kysely } from '@platform/db';
import { enqueueMail, type QueuedMail } from '@platform/mail';
import { insertDataRequest, lockAndCountRecentMails } from '../db/data-requests.repository';
import { insertRecord } from '../db/records.repository';
import type { PropertyRow } from '../db/properties.repository';
import type { ConsentDb } from '../db/tables';
import type { ConsentContext } from './context';
import { recordReceipt } from './receipts.service';

const TYPE_NAMES: Record<DsarBody['type'], string> = {
  access: 'access to their personal data',
  deletion: 'deletion of their personal data',
  correction: 'correction of their personal data',
  opt_out: 'opt-out of the sale or sharing of their personal data',
};

/** DSR_ and 32 hex characters. */
const newRequestId = () => `DSR_${randomBytes(16).toString('hex')}`;

/** The e-mail to the company's owner: what was asked, by whom, on which site. */
function requestMail(property: PropertyRow, requestId: string, body: DsarBody): QueuedMail | undefined {
  const to = property.company.email;
  if (!to) return undefined;
  const lines = [
    `A visitor of ${property.hostname} asks for ${TYPE_NAMES[body.type]}.`,
    '',
    `Request id: ${requestId}`,
    `E-mail: ${body.email}`,
    ...(body.name ? [`Name: ${body.name}`] : []),
    ...(body.message ? ['', 'Message:', body.message] : []),
    '',
    'Privacy laws set deadlines for an answer (e.g. one month under the GDPR, 45 days under the CCPA).',
  ];
  return {
    partnerId: property.partner_id,
    kind: 'dsar',
    to,
    subject: `Data subject request (${body.type}) for ${property.hostname}`,
    text: lines.join('\n'),
  };
}

/** Whether this request's own e-mail may be queued: under the property's and the owner's hourly limits. */
async function withinMailLimits(
  trx: Kysely<ConsentDb>,
  limits: ConsentContext['dsarMailLimits'],
  property: PropertyRow,
  owner: string,
) {
  const recent = await lockAndCountRecentMails(trx, {
    partnerId: property.partner_id,
    propertyId: property.property_id,
    owner,
  });
  return recent.byProperty < limits.perPropertyPerHour && recent.byOwner < limits.perOwnerPerHour;
}

/**
 * A data subject request: stored, the company's owner e-mailed (through the mail queue, in the
 * same transaction), and an opt_out also recorded as a receipt (marketing refused). Past the
 * hourly limits the request is stored as held: the summary job names it in one e-mail later.
 */
export async function receiveDataRequest(
  ctx: Pick<ConsentContext, 'geo' | 'signer' | 'dsarMailLimits'>,
  db: Kysely<ConsentDb>,
  input: { property: PropertyRow; body: DsarBody; visitorAddress: string | undefined },
) {
  const { property, body, visitorAddress } = input;
  const requestId = newRequestId();
  await inTransaction(db, async (trx) => {
    let receiptId: string | null = null;
    if (body.type === 'opt_out') {
      const receipt = {
        receipt_type: 'COOKIE_CONSENT' as const,
        subject: body.subject ?? requestId,
        consent_revision: 'dsar',
        categories: { functional: false, analytics: false, marketing: false },
        gpc: false,
        widget_version: 'dsar',
        nonce: requestId,
      };
      receiptId = (
        await recordReceipt(ctx, (row) => insertRecord(trx, row), {
          property,
          body: receipt,
          visitorAddress,
          subjectData: { request_id: requestId, request_type: body.type },
        })
      ).receipt_id;
    }
    const mail = requestMail(property, requestId, body);
    const held = mail !== undefined && !(await withinMailLimits(trx, ctx.dsarMailLimits, property, mail.to));
    await insertDataRequest(trx, { id: requestId, property, body, receiptId, held });
    if (mail && !held) await enqueueMail<ConsentDb>(trx, [mail]);
  });
  return { request_id: requestId, status: 'received' as const };
}
