import { sql, type Kysely } from 'kysely';
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

/**
 * Claims due mails: the row lock (SKIP LOCKED) lasts only for this statement, and pushing
 * next_attempt_at out by the lease keeps other senders off while this one sends; a crashed
 * sender's mails become due again when the lease ends.
 */
export async function claimDueMail(db: Kysely<DomainsDb>, batch: number, leaseMs: number) {
  return db
    .updateTable('mail_queue')
    .set({ attempts: sql`attempts + 1`, next_attempt_at: sql`now() + ${`${leaseMs} milliseconds`}::interval` })
    .where(
      'id',
      'in',
      db
        .selectFrom('mail_queue')
        .select('id')
        .where('sent_at', 'is', null)
        .where('failed_at', 'is', null)
        .where('next_attempt_at', '<=', sql<Date>`now()`)
        .orderBy('next_attempt_at')
        .limit(batch)
        .forUpdate()
        .skipLocked(),
    )
    .returning(['id', 'to_address', 'subject', 'text_body', 'html_body', 'attempts', 'kind'])
    .execute();
}

export async function markMailSent(db: Kysely<DomainsDb>, id: string) {
  await db.updateTable('mail_queue').set({ sent_at: new Date(), last_error: null }).where('id', '=', id).execute();
}

export async function markMailFailed(db: Kysely<DomainsDb>, id: string, error: string, retryAt: Date | undefined) {
  await db
    .updateTable('mail_queue')
    .set(retryAt ? { last_error: error, next_attempt_at: retryAt } : { last_error: error, failed_at: new Date() })
    .where('id', '=', id)
    .execute();
}

/** Deletes mail sent or given up before `before` (addresses and bodies are not kept longer than needed), in batches. */
export async function pruneMail(db: Kysely<DomainsDb>, before: Date): Promise<number> {
  let total = 0;
  for (;;) {
    const result = await db
      .deleteFrom('mail_queue')
      .where(
        'id',
        'in',
        db
          .selectFrom('mail_queue')
          .select('id')
          .where((eb) => eb.or([eb('sent_at', '<', before), eb('failed_at', '<', before)]))
          .limit(1_000),
      )
      .executeTakeFirst();
    const n = Number(result.numDeletedRows);
    total += n;
    if (n < 1_000) return total;
  }
}
