import { DSAR_REMINDER_DAYS } from '@platform/contracts';
import { inTransaction, sql, type Kysely } from '@platform/db';
import type { JobDefinition } from '@platform/jobs';
import { enqueueMail, type QueuedMail } from '@platform/mail';
import type { ConsentDb } from '../db/tables';
import { reminderMail } from './mails';
import { addHistory, findRequestById, type HistoryEntry } from './requests.repository';
import { writeRequestEvent } from './wire';

const DAY_MS = 86_400_000;
/** Requests one run takes per step at most (the next run takes the rest). */
const BATCH = 500;

/** Unconfirmed requests past their link's expiry become EXPIRED; every expired link's hash is dropped. */
async function expireUnconfirmed(trx: Kysely<ConsentDb>, now: Date) {
  const expired = await trx
    .updateTable('data_requests')
    .set({ status: 'EXPIRED', token_hash: null })
    .where('id', 'in', (q) =>
      q
        .selectFrom('data_requests')
        .select('id')
        .where('status', '=', 'RECEIVED')
        .where('confirm_expires_at', '<=', now)
        .limit(BATCH),
    )
    .returning('id')
    .execute();
  await addHistory(
    trx,
    expired.map((r) => ({ requestId: r.id, kind: 'expired', status: 'EXPIRED', at: now })),
  );
  await trx
    .updateTable('data_requests')
    .set({ token_hash: null })
    .where('token_hash', 'is not', null)
    .where('confirm_expires_at', '<=', now)
    .execute();
  return expired.length;
}

/**
 * Open requests due within `days` not yet reminded for that day (SKIP LOCKED: another instance
 * takes others), each marked reminded and its owner e-mailed in this transaction: once per day.
 */
async function remind(trx: Kysely<ConsentDb>, days: number, now: Date) {
  const { rows } = await sql<{ id: string }>`
    SELECT id FROM data_requests
    WHERE status IN ('VERIFIED', 'IN_PROGRESS') AND due_at > ${now} AND due_at <= ${new Date(now.getTime() + days * DAY_MS)}
      AND NOT (${days}::int = ANY (reminded_days))
    ORDER BY due_at LIMIT ${BATCH} FOR UPDATE SKIP LOCKED`.execute(trx);
  const mails: QueuedMail[] = [];
  const history: HistoryEntry[] = [];
  for (const { id } of rows) {
    const row = (await findRequestById(trx, id))!;
    // Reminded for this day counts for the farther days too: one first seen inside 1 day never hears "7 days".
    const reminded = [...row.reminded_days, ...DSAR_REMINDER_DAYS.filter((d) => d >= days)];
    await trx
      .updateTable('data_requests')
      .set({ reminded_days: [...new Set(reminded)] })
      .where('id', '=', id)
      .execute();
    const mail = reminderMail(row, days);
    if (mail) mails.push(mail);
    history.push({
      requestId: id,
      kind: 'reminded',
      note: `${days} day${days === 1 ? '' : 's'} before the due date`,
      at: now,
    });
  }
  await addHistory(trx, history);
  await enqueueMail<ConsentDb>(trx, mails);
  return rows.length;
}

/** Open requests past due, marked once: data_request.overdue and the owner's e-mail. */
async function markOverdue(trx: Kysely<ConsentDb>, now: Date) {
  const { rows } = await sql<{ id: string }>`
    SELECT id FROM data_requests
    WHERE status IN ('VERIFIED', 'IN_PROGRESS') AND due_at <= ${now} AND overdue_at IS NULL
    ORDER BY due_at LIMIT ${BATCH} FOR UPDATE SKIP LOCKED`.execute(trx);
  for (const { id } of rows) {
    await trx.updateTable('data_requests').set({ overdue_at: now }).where('id', '=', id).execute();
    const row = (await findRequestById(trx, id))!;
    await writeRequestEvent(trx, row, 'overdue', now);
    const mail = reminderMail(row, 0);
    if (mail) await enqueueMail<ConsentDb>(trx, [mail]);
  }
  await addHistory(
    trx,
    rows.map((r) => ({ requestId: r.id, kind: 'overdue', at: now })),
  );
  return rows.length;
}

/** One pass over the deadlines: expiries, reminders (nearest day first: it marks the farther ones done), the overdue marks. */
export async function sweepDataRequests(db: Kysely<ConsentDb>, now: Date) {
  return inTransaction(db, async (trx) => {
    const expired = await expireUnconfirmed(trx, now);
    let reminded = 0;
    for (const days of [...DSAR_REMINDER_DAYS].sort((a, b) => a - b)) reminded += await remind(trx, days, now);
    const overdue = await markOverdue(trx, now);
    return { expired, reminded, overdue };
  });
}

/** The deadlines' sweep, once per period (one instance at a time). */
export const dataRequestSweepJob = (periodMs: number): JobDefinition<ConsentDb> => ({
  name: 'sweep-data-requests',
  intervalMs: periodMs,
  singleton: true,
  run: async ({ db, now }) => {
    const r = await sweepDataRequests(db, now);
    return r.expired + r.reminded + r.overdue;
  },
});
