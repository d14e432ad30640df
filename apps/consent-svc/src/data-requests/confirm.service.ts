import { hashToken } from '@platform/auth';
import {
  DSAR_DEADLINES,
  type ConfirmedDataRequest,
  type DsarDeadlineRule,
  type DsarType,
  type DsarStatus,
} from '@platform/contracts';
import { inTransaction, type Kysely } from '@platform/db';
import { AppError } from '@platform/http';
import { enqueueMail } from '@platform/mail';
import { lockAndCountRecentMails } from '../db/data-requests.repository';
import type { ConsentDb } from '../db/tables';
import type { ConsentContext } from '../domain/context';
import { verifiedMail } from './mails';
import { addHistory, findRequestById, type RequestRow } from './requests.repository';
import { writeRequestEvent } from './wire';

const DAY_MS = 86_400_000;
const linkInvalid = () => new AppError('DATA_REQUEST.LINK_INVALID');

/** Whether the owner's e-mail of this request may go out now: under the property's and the owner's hourly limits. */
async function withinMailLimits(
  trx: Kysely<ConsentDb>,
  limits: ConsentContext['dsarMailLimits'],
  row: RequestRow,
  owner: string,
) {
  const recent = await lockAndCountRecentMails(trx, { partnerId: row.partner_id, propertyId: row.property_id, owner });
  return recent.byProperty < limits.perPropertyPerHour && recent.byOwner < limits.perOwnerPerHour;
}

const answerOf = (row: RequestRow): ConfirmedDataRequest => ({
  request_id: row.id,
  type: row.type as DsarType,
  hostname: row.hostname,
  status: row.status as DsarStatus,
  due_at: row.due_at ? row.due_at.toISOString() : null,
});

/**
 * The requester opened the e-mailed link: the request becomes VERIFIED, its due date runs from now
 * by its rule, data_request.verified goes to the outbox and the owner is e-mailed (past the hourly
 * limits: held for the summary), all in one transaction. The same link again answers the same
 * (a second tab, a mail scanner); an unknown or expired one is 404 DATA_REQUEST.LINK_INVALID.
 */
export async function confirmDataRequest(
  ctx: Pick<ConsentContext, 'dsarMailLimits'>,
  db: Kysely<ConsentDb>,
  token: string,
  now = new Date(),
): Promise<ConfirmedDataRequest> {
  return inTransaction(db, async (trx) => {
    const hit = await trx
      .selectFrom('data_requests')
      .select('id')
      .where('token_hash', '=', hashToken(token))
      .executeTakeFirst();
    const row = hit && (await findRequestById(trx, hit.id, true));
    if (!row || row.status === 'EXPIRED') throw linkInvalid();
    if (row.status !== 'RECEIVED') return answerOf(row);
    const expires = await trx
      .selectFrom('data_requests')
      .select('confirm_expires_at')
      .where('id', '=', row.id)
      .executeTakeFirstOrThrow();
    if (!expires.confirm_expires_at || expires.confirm_expires_at <= now) throw linkInvalid();
    const rule = DSAR_DEADLINES[row.deadline_rule as DsarDeadlineRule];
    const verified: RequestRow = {
      ...row,
      status: 'VERIFIED',
      verified_at: now,
      due_at: new Date(now.getTime() + rule.days * DAY_MS),
    };
    const mail = verifiedMail(verified);
    const held = mail !== undefined && !(await withinMailLimits(trx, ctx.dsarMailLimits, verified, mail.to));
    await trx
      .updateTable('data_requests')
      .set({ status: 'VERIFIED', verified_at: now, due_at: verified.due_at, held })
      .where('id', '=', row.id)
      .execute();
    await addHistory(trx, [{ requestId: row.id, kind: 'verified', status: 'VERIFIED', at: now }]);
    await writeRequestEvent(trx, verified, 'verified', now);
    if (mail && !held) await enqueueMail<ConsentDb>(trx, [mail]);
    return answerOf(verified);
  });
}
