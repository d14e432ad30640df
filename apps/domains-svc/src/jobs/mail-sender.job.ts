import type { Transporter } from 'nodemailer';
import type { JobDefinition } from '@platform/jobs';
import type { Logger } from '@platform/observability';
import { claimDueMail, markMailFailed, markMailSent, pruneMail } from '../db/mail-queue.repository';
import type { DomainsDatabase, DomainsDb } from '../db/tables';

export interface MailJobOptions {
  from: string;
  pollMs: number;
  /** How long a claimed mail stays reserved for this sender; a run is abandoned before it ends. */
  leaseMs: number;
  /** Sent and given-up mail (addresses and bodies) is deleted this long after. */
  retentionMs: number;
  batch?: number;
  maxAttempts?: number;
}

/** Retry delays grow: 5 s, 20 s, 80 s ... capped at one hour. */
export const backoffMs = (attempt: number) => Math.min(3_600_000, 5_000 * 4 ** Math.max(0, attempt - 1));

/**
 * Sends queued e-mail outside any request: claims due rows (SKIP LOCKED and a lease, safe with
 * many instances), sends, marks them sent, reschedules failures with backoff, gives up after
 * maxAttempts. Answers how many mails were handled.
 */
export async function sendDueMail(db: DomainsDatabase, transport: Transporter, logger: Logger, options: MailJobOptions): Promise<number> {
  const batch = await claimDueMail(db, options.batch ?? 20, options.leaseMs);
  const maxAttempts = options.maxAttempts ?? 8;
  for (const mail of batch) {
    try {
      await transport.sendMail({
        from: options.from,
        to: mail.to_address,
        subject: mail.subject,
        text: mail.text_body,
        ...(mail.html_body ? { html: mail.html_body } : {}),
      });
      await markMailSent(db, mail.id);
      logger.info({ mailId: mail.id, kind: mail.kind }, 'mail sent');
    } catch (err) {
      const retryAt = mail.attempts < maxAttempts ? new Date(Date.now() + backoffMs(mail.attempts)) : undefined;
      const message = err instanceof Error ? err.message : String(err);
      await markMailFailed(db, mail.id, message.slice(0, 500), retryAt);
      logger.warn({ mailId: mail.id, kind: mail.kind, attempts: mail.attempts, willRetry: Boolean(retryAt), error: message }, 'mail send failed');
    }
  }
  return batch.length;
}

/** The mail jobs of domains-svc: sending (every instance, claims are exclusive) and pruning (one instance at a time). */
export function mailJobs(transport: Transporter, logger: Logger, options: MailJobOptions): JobDefinition<DomainsDb>[] {
  return [
    { name: 'send-mail', intervalMs: options.pollMs, deadlineMs: options.leaseMs, run: ({ db }) => sendDueMail(db, transport, logger, options) },
    {
      name: 'prune-mail',
      intervalMs: 60 * 60_000,
      singleton: true,
      run: ({ db, now }) => pruneMail(db, new Date(now.getTime() - options.retentionMs)),
    },
  ];
}
