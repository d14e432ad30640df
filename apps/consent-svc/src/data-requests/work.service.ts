import {
  DSAR_CLOSED_STATUSES,
  DSAR_DEADLINES,
  DSAR_OPEN_STATUSES,
  type DsarDeadlineRule,
  type DsarStatus,
  type UpdateDataRequestBody,
} from '@platform/contracts';
import { inTransaction, type Kysely } from '@platform/db';
import { AppError, notFound } from '@platform/http';
import { enqueueMail } from '@platform/mail';
import type { RecordScope } from '../db/records.repository';
import type { ConsentDb } from '../db/tables';
import { closingMail } from './mails';
import {
  addHistory,
  findScopedRequest,
  historyOf,
  scopeExists,
  type HistoryEntry,
  type RequestRow,
} from './requests.repository';
import { toDataRequest, writeRequestEvent } from './wire';

const DAY_MS = 86_400_000;
/** Where each status may go by the owner's hand (RECEIVED waits for the requester, closed and EXPIRED stay). */
const NEXT: Partial<Record<DsarStatus, DsarStatus[]>> = {
  VERIFIED: ['IN_PROGRESS', 'COMPLETED', 'REJECTED'],
  IN_PROGRESS: ['COMPLETED', 'REJECTED'],
};
const refused = (message: string) => new AppError('DATA_REQUEST.INVALID_TRANSITION', message);

/** The request after an extension: one per request, while it is open, by its rule's days from the current due date. */
function extended(row: RequestRow, reason: string, now: Date): RequestRow {
  if (!DSAR_OPEN_STATUSES.includes(row.status as DsarStatus) || !row.due_at)
    throw refused(`A ${row.status} request cannot be extended.`);
  if (row.extended_at) throw refused('The deadline was extended already (once per request).');
  const days = DSAR_DEADLINES[row.deadline_rule as DsarDeadlineRule].extensionDays;
  const due = new Date(row.due_at.getTime() + days * DAY_MS);
  // Reminders and the overdue mark start over for the new date.
  return { ...row, due_at: due, extended_at: now, extension_reason: reason, reminded_days: [], overdue_at: null };
}

function moved(row: RequestRow, status: DsarStatus, now: Date): RequestRow {
  if (!(NEXT[row.status as DsarStatus] ?? []).includes(status))
    throw refused(`A ${row.status} request cannot become ${status}.`);
  return { ...row, status, closed_at: DSAR_CLOSED_STATUSES.includes(status) ? now : row.closed_at };
}

/**
 * The owner (or partner) works a request of the scope: an extension, a status move and a note,
 * recorded in its history. Closing it (COMPLETED, REJECTED) e-mails the requester the note and
 * emits data_request.closed, in the same transaction. Another scope's request: 404.
 */
export async function updateDataRequest(
  db: Kysely<ConsentDb>,
  scope: RecordScope,
  requestId: string,
  input: { body: UpdateDataRequestBody; actor: string },
  now = new Date(),
) {
  const { body, actor } = input;
  return inTransaction(db, async (trx) => {
    if (!(await scopeExists(trx, scope))) throw notFound('domain');
    const row = await findScopedRequest(trx, scope, requestId, true);
    if (!row) throw notFound('request');
    let next = row;
    const history: HistoryEntry[] = [];
    if (body.extend) {
      next = extended(next, body.extend.reason, now);
      history.push({ requestId, kind: 'extended', note: body.extend.reason, actor, at: now });
    }
    if (body.status) {
      next = moved(next, body.status, now);
      history.push({ requestId, kind: 'status', status: body.status, note: body.note, actor, at: now });
    } else if (body.note) history.push({ requestId, kind: 'note', note: body.note, actor, at: now });
    const closing = next.status !== row.status && DSAR_CLOSED_STATUSES.includes(next.status as DsarStatus);
    await trx
      .updateTable('data_requests')
      .set({
        status: next.status,
        due_at: next.due_at,
        extended_at: next.extended_at,
        extension_reason: next.extension_reason,
        reminded_days: next.reminded_days,
        overdue_at: next.overdue_at,
        closed_at: next.closed_at,
        ...(closing ? { token_hash: null } : {}),
      })
      .where('id', '=', requestId)
      .execute();
    await addHistory(trx, history);
    if (closing) {
      await writeRequestEvent(trx, next, 'closed', now);
      await enqueueMail<ConsentDb>(trx, [closingMail(next, body.note)]);
    }
    return toDataRequest(next, await historyOf(trx, [requestId]), now);
  });
}
