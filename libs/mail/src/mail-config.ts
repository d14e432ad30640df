import nodemailer, { type Transporter } from 'nodemailer';
import { z } from 'zod';
import { env } from '@platform/config';
import type { MailJobOptions } from './mail-sender.job';

/** The e-mail variables of a service that sends mail (beside the chassis' own). */
export const mailConfig = {
  SMTP_URL: z.string().url().default('smtp://127.0.0.1:1025'),
  MAIL_FROM: z.string().min(3).default('Privacy Widget <no-reply@privacy-widget.local>'),
  MAIL_POLL_MS: env.durationMs(1_000),
  /** A claimed e-mail is reserved this long; the SMTP timeouts below stay under it. */
  MAIL_LEASE_MS: env.durationMs(60_000),
  /** Connection, greeting and socket timeouts of the SMTP transport. */
  SMTP_TIMEOUT_MS: env.durationMs(15_000),
  /** Sent mail (addresses and bodies) is deleted this long after sending. */
  MAIL_RETENTION_MS: env.durationMs(7 * 24 * 3_600_000),
};
export type MailConfig = z.infer<z.ZodObject<typeof mailConfig>>;

/** The SMTP transport; refuses timeouts that could outlast a claimed mail's lease. */
export function createMailTransport(config: MailConfig): Transporter {
  if (config.SMTP_TIMEOUT_MS * 3 >= config.MAIL_LEASE_MS)
    throw new Error('SMTP_TIMEOUT_MS must stay well under MAIL_LEASE_MS (a third at most)');
  const timeout = config.SMTP_TIMEOUT_MS;
  return nodemailer.createTransport({
    url: config.SMTP_URL,
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout,
  });
}

export const mailJobOptions = (config: MailConfig): MailJobOptions => ({
  from: config.MAIL_FROM,
  pollMs: config.MAIL_POLL_MS,
  leaseMs: config.MAIL_LEASE_MS,
  retentionMs: config.MAIL_RETENTION_MS,
});
