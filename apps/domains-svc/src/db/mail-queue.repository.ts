import { sql, type Kysely } from 'kysely';
import { claimWithLease } from '@platform/jobs';
import type { DomainsDb } from './tables';

export interface QueuedMail {
  partnerId: string;
  kind: string;
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export async function enqueueMail(db: Kysely<DomainsDb>, mails: QueuedMail[]) {
  if (mails.length === 0) return;
  await db
    .insertInto('mail_queue')
    .values(
      mails.map((m) => ({
        partner_id: m.partnerId,
        kind: m.kind,
        to_address: m.to,
        subject: m.subject,
        text_body: m.text,
        html_body: m.html ?? null,
      })),
    )
    .execute();
}

/** A claimed mail, as the sender needs it. */
interface ClaimedMail {
  id: string;
  kind: string;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  /** Including this claim. */
  attempts: number;
}

/**
 * Claims up to `limit` due mails for `leaseMs` (SKIP LOCKED; next_attempt_at pushed out by the
 * lease, attempts counted): other senders skip them while this one sends, and a crashed sender's
 * mails become due again when the lease ends. `now` is the job runner's clock.
 */
export async function claimDueMail(db: Kysely<DomainsDb>, now: Date, leaseMs: number, limit = 1): Promise<ClaimedMail[]> {
  const rows = await claimWithLease<ClaimedMail>(db, {
    table: 'mail_queue',
    dueColumn: 'next_attempt_at',
    now,
    leaseMs,
    limit,
    // The predicate of the partial index mail_queue_due.
    where: sql`sent_at IS NULL AND failed_at IS NULL`,
    set: sql`attempts = attempts + 1`,
  });
  return rows.map((r) => ({ id: String(r.id), kind: r.kind, to_address: r.to_address, subject: r.subject, text_body: r.text_body, html_body: r.html_body, attempts: r.attempts }));
}

export async function markMailSent(db: Kysely<DomainsDb>, id: string, at: Date) {
  await db.updateTable('mail_queue').set({ sent_at: at, last_error: null }).where('id', '=', id).execute();
}

/** A failed send: due again at `retryAt`, or given up (failed_at = at) without one. */
export async function markMailFailed(db: Kysely<DomainsDb>, id: string, error: string, at: Date, retryAt: Date | undefined) {
  await db
    .updateTable('mail_queue')
    .set(retryAt ? { last_error: error, next_attempt_at: retryAt } : { last_error: error, failed_at: at })
    .where('id', '=', id)
    .execute();
}

/**
 * Deletes mail sent or given up before `before` (addresses and bodies are not kept longer than
 * needed), 1,000 rows per statement; pass the pool. Stops between batches once `signal` is
 * aborted (the next run deletes the rest).
 */
export async function pruneMail(db: Kysely<DomainsDb>, before: Date, signal?: AbortSignal): Promise<number> {
  const batch = 1_000;
  let total = 0;
  while (!signal?.aborted) {
    const result = await db
      .deleteFrom('mail_queue')
      .where(
        'id',
        'in',
        db
          .selectFrom('mail_queue')
          .select('id')
          .where((eb) => eb.or([eb('sent_at', '<', before), eb('failed_at', '<', before)]))
          .limit(batch),
      )
      .executeTakeFirst();
    const n = Number(result.numDeletedRows);
    total += n;
    if (n < batch) break;
  }
  return total;
}
