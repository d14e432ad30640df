import type { Kysely } from 'kysely';
import type { Transporter } from 'nodemailer';
import type { Logger } from '@platform/observability';
import { claimDueMail, markMailFailed, markMailSent } from '../db/mail-queue.repository';
import type { DomainsDb } from '../db/tables';

export interface MailSenderOptions {
  from: string;
  pollMs: number;
  batch?: number;
  /** How long a claimed mail stays reserved for this sender before another may retry it. */
  leaseMs?: number;
  maxAttempts?: number;
}

/** Retry delays grow: 5 s, 20 s, 80 s ... capped at one hour. */
export const backoffMs = (attempt: number) => Math.min(3_600_000, 5_000 * 4 ** Math.max(0, attempt - 1));

/**
 * Sends queued e-mail outside any request: claims due rows (SKIP LOCKED, safe with many
 * instances), sends, marks them sent, reschedules failures with backoff, gives up after maxAttempts.
 */
export class MailSenderJob {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = true;

  constructor(
    private readonly db: Kysely<DomainsDb>,
    private readonly transport: Transporter,
    private readonly logger: Logger,
    private readonly options: MailSenderOptions,
  ) {}

  start() {
    this.stopped = false;
    this.schedule(0);
  }

  async stop() {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  private schedule(delay: number) {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.runOnce()
        .then((sent) => this.schedule(sent > 0 ? 0 : this.options.pollMs))
        .catch((err) => {
          this.logger.error({ err }, 'mail sender pass failed');
          this.schedule(this.options.pollMs);
        });
    }, delay);
  }

  /** One pass; answers how many mails were handled. */
  async runOnce(): Promise<number> {
    const batch = await claimDueMail(this.db, this.options.batch ?? 20, this.options.leaseMs ?? 60_000);
    const maxAttempts = this.options.maxAttempts ?? 8;
    for (const mail of batch) {
      try {
        await this.transport.sendMail({
          from: this.options.from,
          to: mail.to_address,
          subject: mail.subject,
          text: mail.text_body,
          ...(mail.html_body ? { html: mail.html_body } : {}),
        });
        await markMailSent(this.db, mail.id);
        this.logger.info({ mailId: mail.id, kind: mail.kind }, 'mail sent');
      } catch (err) {
        const retryAt = mail.attempts < maxAttempts ? new Date(Date.now() + backoffMs(mail.attempts)) : undefined;
        const message = err instanceof Error ? err.message : String(err);
        await markMailFailed(this.db, mail.id, message.slice(0, 500), retryAt);
        this.logger.warn({ mailId: mail.id, kind: mail.kind, attempts: mail.attempts, willRetry: Boolean(retryAt), error: message }, 'mail send failed');
      }
    }
    return batch.length;
  }
}
