import { randomBytes } from 'node:crypto';
import { hashToken, newToken } from '@platform/auth';
import { DSAR_CONFIRM_TTL_HOURS, type DsarAnswer, type DsarBody } from '@platform/contracts';
import { inTransaction, type Kysely } from '@platform/db';
import { enqueueMail } from '@platform/mail';
import { insertDataRequest } from '../db/data-requests.repository';
import { insertRecord } from '../db/records.repository';
import type { PropertyRow } from '../db/properties.repository';
import type { ConsentDb } from '../db/tables';
import { confirmationMail, confirmUrl } from '../data-requests/mails';
import { addHistory } from '../data-requests/requests.repository';
import { assertWithinLimits } from '../data-requests/throttle';
import type { ConsentContext } from './context';
import type { VisitorPlace } from '@platform/geo';
import { recordReceipt } from './receipts.service';

/** DSR_ and 32 hex characters. */
const newRequestId = () => `DSR_${randomBytes(16).toString('hex')}`;

/** US state laws give 45 days; every other place (GDPR-like, or none we name) the stricter 30. */
export const deadlineRuleOf = (place: VisitorPlace) =>
  place.country === 'US' && place.jurisdiction !== null ? ('US_STATE' as const) : ('GDPR' as const);

/** An opt_out is also a receipt at once (marketing refused): an opt-out of sale needs no verification. */
async function optOutReceipt(
  ctx: Pick<ConsentContext, 'geo' | 'signer'>,
  trx: Kysely<ConsentDb>,
  input: { property: PropertyRow; body: DsarBody; visitorAddress: string | undefined; requestId: string },
) {
  const { property, body, visitorAddress, requestId } = input;
  const receipt = {
    receipt_type: 'COOKIE_CONSENT' as const,
    subject: body.subject ?? requestId,
    consent_revision: 'dsar',
    categories: { functional: false, analytics: false, marketing: false },
    gpc: false,
    widget_version: 'dsar',
    nonce: requestId,
  };
  const record = await recordReceipt(ctx, (row) => insertRecord(trx, row), {
    property,
    body: receipt,
    visitorAddress,
    subjectData: { request_id: requestId, request_type: body.type },
  });
  return record.receipt_id;
}

/**
 * A data subject request from the form: throttled (per client, property and requester address),
 * stored as RECEIVED with its confirmation token as a hash, and the one e-mail it ever sends to the
 * typed address (the link) queued in the same transaction. Nobody acts on it before the link is
 * opened (confirmDataRequest); unopened, the sweep expires it. The visitor's place (GeoIP) decides
 * the deadline rule; the address itself is kept only as a hash for the throttle.
 */
export async function receiveDataRequest(
  ctx: Pick<ConsentContext, 'geo' | 'signer' | 'dsarLimits' | 'widgetBaseUrl'>,
  db: Kysely<ConsentDb>,
  input: { property: PropertyRow; body: DsarBody; visitorAddress: string | undefined },
  now = new Date(),
): Promise<DsarAnswer> {
  const { property, body, visitorAddress } = input;
  const requestId = newRequestId();
  const token = newToken();
  const place = ctx.geo.lookup(visitorAddress);
  const clientHash = visitorAddress ? hashToken(`dsar-client:${visitorAddress}`) : null;
  const confirmBy = new Date(now.getTime() + DSAR_CONFIRM_TTL_HOURS * 3_600_000);
  await inTransaction(db, async (trx) => {
    await assertWithinLimits(
      trx,
      ctx.dsarLimits,
      { propertyId: property.property_id, clientHash, email: body.email },
      now,
    );
    const receiptId = body.type === 'opt_out' ? await optOutReceipt(ctx, trx, { ...input, requestId }) : null;
    await insertDataRequest(trx, {
      id: requestId,
      property,
      body,
      receiptId,
      tokenHash: hashToken(token),
      confirmBy,
      clientHash,
      place,
      deadlineRule: deadlineRuleOf(place),
      now,
    });
    await addHistory(trx, [{ requestId, kind: 'received', status: 'RECEIVED', at: now }]);
    const mail = { partnerId: property.partner_id, email: body.email, type: body.type, hostname: property.hostname };
    await enqueueMail<ConsentDb>(trx, [confirmationMail(mail, confirmUrl(ctx.widgetBaseUrl, token))]);
  });
  return { request_id: requestId, status: 'RECEIVED', confirm_by: confirmBy.toISOString() };
}
