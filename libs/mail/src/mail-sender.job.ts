import type { Kysely } from 'kysely';
import type { Transporter } from 'nodemailer';
import type { Clock, JobDefinition } from '@platform/jobs';
import type { Logger } from '@platform/observability';
import { claimDueMail, markMailFailed, markMailSent, pruneMail, type MailQueueDb } from './mail-queue.repository';

export interface MailJobOptions {
  from: string;
  pollMs: number;
  /**
   * How long a claimed mail stays reserved for its sender. Each mail is claimed just before it is
   * sent, so one send (bounded by the SMTP transport's timeouts, kept well under the lease) ends
   * before another sender may take it.
   */
  leaseMs: number;
  /** Sent and given-up mail (addresses and bodies) is deleted this long after. */
  retentionMs: number;
  /** Most mails one run sends (default 20). */
  batch?: number;
  maxAttempts?: number;
}

/** Retry delays grow: 5 s, 20 s, 80 s ... capped at one hour. */
export const backoffMs = (attempt: number) => Math.min(3_600_000, 5_000 * 4 ** Math.max(0, attempt - 1));

interface MailRun<DB extends MailQueueDb> {
  db: Kysely<DB>;
  clock: Clock;
  /** Once aborted (deadline, shutdown) no further mail is claimed; a send in flight finishes. */
  signal?: AbortSignal;
}

/**
 * Sends queued e-mail outside any request: claims one due mail at a time (SKIP LOCKED and a
 * lease, safe with many instances), sends it, marks it sent, reschedules a failure with backoff,
 * gives up after maxAttempts. Answers how many mails were handled.
 */
async function sendDueMail<DB extends MailQueueDb>(
  { db, clock, signal }: MailRun<DB>,
  transport: Transporter,
  logger: Logger,
  options: MailJobOptions,
): Promise<number> {
  const maxAttempts = options.maxAttempts ?? 8;
  const batch = options.batch ?? 20;
  let handled = 0;
  while (handled < batch && !signal?.aborted) {
    const [mail] = await claimDueMail(db, clock.now(), options.leaseMs);
    if (!mail) break;
    handled += 1;
    try {
      await transport.sendMail({
        from: options.from,
        to: mail.to_address,
        subject: mail.subject,
        text: mail.text_body,
        ...(mail.html_body ? { html: mail.html_body } : {}),
      });
      await markMailSent(db, mail.id, clock.now());
      logger.info({ mailId: mail.id, kind: mail.kind }, 'mail sent');
    } catch (err) {
      const now = clock.now();
      const retryAt = mail.attempts < maxAttempts ? new Date(now.getTime() + backoffMs(mail.attempts)) : undefined;
      const message = err instanceof Error ? err.message : String(err);
      await markMailFailed(db, mail.id, message.slice(0, 500), now, retryAt);
      logger.warn(
        { mailId: mail.id, kind: mail.kind, attempts: mail.attempts, willRetry: Boolean(retryAt), error: message },
        'mail send failed',
      );
    }
  }
  return handled;
}

/** A service's mail jobs: sending (every instance, claims are exclusive) and pruning (one instance at a time). */
export function mailJobs<DB extends MailQueueDb>(
  transport: Transporter,
  logger: Logger,
  options: MailJobOptions,
): JobDefinition<DB>[] {
  return [
    {
      name: 'send-mail',
      intervalMs: options.pollMs,
      // Past it no further mail is claimed; the mail in flight has its own lease, so no other sender takes it meanwhile.
      deadlineMs: options.leaseMs,
      run: ({ db, clock, signal }) => sendDueMail({ db, clock, signal }, transport, logger, options),
    },
    {
      name: 'prune-mail',
      intervalMs: 60 * 60_000,
      jitterMs: 5 * 60_000,
      singleton: true,
      run: ({ db, now, signal }) => pruneMail(db, new Date(now.getTime() - options.retentionMs), signal),
    },
  ];
}
