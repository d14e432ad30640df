import { sql, type ColumnType, type Generated, type Kysely } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

/** The outgoing e-mail of a service, in its own schema (see createMailQueueTable). */
export interface MailQueueTable {
  id: Generated<string>;
  partner_id: string;
  kind: string;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  attempts: Generated<number>;
  next_attempt_at: Timestamp;
  sent_at: NullableTimestamp;
  failed_at: NullableTimestamp;
  last_error: string | null;
  created_at: Timestamp;
}

/** A service database that holds a mail queue (its other tables do not matter here). */
export interface MailQueueDb {
  mail_queue: MailQueueTable;
}

/** Any service's database (or transaction) that has mail_queue, seen as only that (Kysely's types are invariant in the schema). */
const mailDb = <DB extends MailQueueDb>(db: Kysely<DB>) => db as unknown as Kysely<MailQueueDb>;

export interface QueuedMail {
  partnerId: string;
  kind: string;
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export async function enqueueMail<DB extends MailQueueDb>(anyDb: Kysely<DB>, mails: QueuedMail[]) {
  const db = mailDb(anyDb);
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
 *
 * Fair share: recipients take turns. Each recipient's oldest due mail is a candidate, and the
 * recipient served longest ago (or never) goes first, so one recipient's flood of mail delays
 * another recipient's by one mail at most, not by the whole flood. One claim takes at most one
 * mail per recipient.
 */
export async function claimDueMail<DB extends MailQueueDb>(
  anyDb: Kysely<DB>,
  now: Date,
  leaseMs: number,
  limit = 1,
): Promise<ClaimedMail[]> {
  const db = mailDb(anyDb);
  // The due predicate is the one of the partial index mail_queue_due.
  const { rows } = await sql<ClaimedMail>`
    WITH heads AS (
      SELECT DISTINCT ON (to_address) id, to_address, next_attempt_at FROM mail_queue
      WHERE next_attempt_at <= ${now} AND sent_at IS NULL AND failed_at IS NULL
      ORDER BY to_address, next_attempt_at, id
    ), pick AS (
      SELECT m.id FROM mail_queue m JOIN heads h ON h.id = m.id
      WHERE m.next_attempt_at <= ${now} AND m.sent_at IS NULL AND m.failed_at IS NULL
      ORDER BY (SELECT max(s.sent_at) FROM mail_queue s WHERE s.to_address = h.to_address) NULLS FIRST, h.next_attempt_at, h.id
      LIMIT ${limit}
      FOR UPDATE OF m SKIP LOCKED
    )
    UPDATE mail_queue SET next_attempt_at = ${new Date(now.getTime() + leaseMs)}, attempts = attempts + 1
    FROM pick WHERE mail_queue.id = pick.id
    RETURNING mail_queue.*`.execute(db);
  return rows.map((r) => ({
    id: String(r.id),
    kind: r.kind,
    to_address: r.to_address,
    subject: r.subject,
    text_body: r.text_body,
    html_body: r.html_body,
    attempts: r.attempts,
  }));
}

export async function markMailSent<DB extends MailQueueDb>(anyDb: Kysely<DB>, id: string, at: Date) {
  const db = mailDb(anyDb);
  await db.updateTable('mail_queue').set({ sent_at: at, last_error: null }).where('id', '=', id).execute();
}

/** A failed send: due again at `retryAt`, or given up (failed_at = at) without one. */
export async function markMailFailed<DB extends MailQueueDb>(
  anyDb: Kysely<DB>,
  id: string,
  error: string,
  at: Date,
  retryAt: Date | undefined,
) {
  const db = mailDb(anyDb);
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
export async function pruneMail<DB extends MailQueueDb>(
  anyDb: Kysely<DB>,
  before: Date,
  signal?: AbortSignal,
): Promise<number> {
  const db = mailDb(anyDb);
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

/** The mail_queue table and its due index, for a service's migration. */
export async function createMailQueueTable(db: Kysely<unknown>) {
  await sql`
    CREATE TABLE mail_queue (
      id bigserial PRIMARY KEY,
      partner_id text NOT NULL,
      kind text NOT NULL,
      to_address text NOT NULL,
      subject text NOT NULL,
      text_body text NOT NULL,
      html_body text,
      attempts integer NOT NULL DEFAULT 0,
      next_attempt_at timestamptz NOT NULL DEFAULT now(),
      sent_at timestamptz,
      failed_at timestamptz,
      last_error text,
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE INDEX mail_queue_due ON mail_queue (next_attempt_at) WHERE sent_at IS NULL AND failed_at IS NULL`.execute(
    db,
  );
}

/** The index of a recipient's mail (its last send, for claimDueMail's turns), for a service's migration. */
export async function createMailQueueRecipientIndex(db: Kysely<unknown>) {
  await sql`CREATE INDEX mail_queue_recipient ON mail_queue (to_address, sent_at)`.execute(db);
}
