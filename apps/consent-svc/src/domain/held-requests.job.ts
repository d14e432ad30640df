import { inTransaction, type Kysely } from '@platform/db';
import type { JobDefinition } from '@platform/jobs';
import { enqueueMail, type QueuedMail } from '@platform/mail';
import { findHeldRequests, markSummarised, type HeldRequest } from '../db/data-requests.repository';
import type { ConsentDb } from '../db/tables';

/** Requests one summary e-mail lists by id; the rest are counted. */
const LISTED = 50;
/** Held requests one run summarises at most (the next run takes the rest). */
const RUN_MAX = 5_000;

/** One e-mail for a property's held requests: how many, when, and their ids (never the requesters' own text). */
function summaryMail(requests: HeldRequest[]): QueuedMail | undefined {
  const [first] = requests;
  const to = first.company.email;
  if (!to) return undefined;
  const lines = [
    `${requests.length} data subject requests for ${first.hostname} arrived past the hourly limit of request e-mails`,
    `between ${first.created_at.toISOString()} and ${requests[requests.length - 1].created_at.toISOString()}.`,
    'Each is stored as received; they were not e-mailed one by one.',
    '',
    ...requests.slice(0, LISTED).map((r) => `${r.id}  ${r.type}  ${r.email}`),
    ...(requests.length > LISTED ? [`... and ${requests.length - LISTED} more.`] : []),
  ];
  return {
    partnerId: first.partner_id,
    kind: 'dsar-summary',
    to,
    subject: `${requests.length} held data subject requests for ${first.hostname}`,
    text: lines.join('\n'),
  };
}

/** Groups held requests by property and queues one summary e-mail each, marking them summarised. */
export async function summariseHeldRequests(db: Kysely<ConsentDb>, now: Date): Promise<number> {
  return inTransaction(db, async (trx) => {
    const held = await findHeldRequests(trx, RUN_MAX);
    const byProperty = new Map<string, HeldRequest[]>();
    for (const r of held) {
      const requests = byProperty.get(r.property_id);
      if (requests) requests.push(r);
      else byProperty.set(r.property_id, [r]);
    }
    const mails = [...byProperty.values()].flatMap((requests) => summaryMail(requests) ?? []);
    await enqueueMail<ConsentDb>(trx, mails);
    await markSummarised(
      trx,
      held.map((r) => r.id),
      now,
    );
    return mails.length;
  });
}

/** The summary of held requests, once per period (one instance at a time). */
export const heldRequestsJob = (periodMs: number): JobDefinition<ConsentDb> => ({
  name: 'summarise-held-requests',
  intervalMs: periodMs,
  singleton: true,
  run: ({ db, now }) => summariseHeldRequests(db, now),
});
