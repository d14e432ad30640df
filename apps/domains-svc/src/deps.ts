import type { Pool } from 'pg';
import nodemailer, { type Transporter } from 'nodemailer';
import { InternalTokenVerifier } from '@platform/auth';
import { openServiceDb, type Kysely } from '@platform/db';
import { connectAmqp, startOutboxRelay, type AmqpConnection, type OutboxRelay } from '@platform/messaging';
import { createLogger, type Logger } from '@platform/observability';
import type { Config } from './config';
import { migrations } from './db/migrations';
import { SCHEMA, type DomainsDb } from './db/tables';
import type { DomainsContext, InstanceSettings } from './domain/context';
import { MailSenderJob } from './jobs/mail-sender.job';

export const SERVICE_AUDIENCE = 'domains';

export interface Deps {
  config: Config;
  logger: Logger;
  db: Kysely<DomainsDb>;
  pool: Pool;
  verifier: InternalTokenVerifier;
  ctx: DomainsContext;
  mailer: Transporter;
  mailSender: MailSenderJob;
  amqp: AmqpConnection;
  /** Starts background work (mail sender, outbox relay). */
  start(): void;
  /** Stops background work and closes connections. */
  close(): Promise<void>;
}

export const instanceSettings = (config: Config): InstanceSettings => ({
  widgetBaseUrl: config.WIDGET_BASE_URL,
  instance: { id: config.INSTANCE_ID, name: config.INSTANCE_NAME, hostname: config.INSTANCE_HOSTNAME, region: config.INSTANCE_REGION },
  systemSegmentId: config.SYSTEM_SEGMENT_ID,
  widgetVersion: config.WIDGET_VERSION,
});

/** The composition root; tests pass overrides (e.g. a logger, a mail transport). */
export async function buildDeps(config: Config, overrides: Partial<Pick<Deps, 'logger' | 'mailer'>> = {}): Promise<Deps> {
  const logger = overrides.logger ?? createLogger('domains-svc', config.LOG_LEVEL);
  // Migrates as the URL's user, then runs as svc_domains, which can touch only this schema.
  const { db, pool } = await openServiceDb<DomainsDb>({ url: config.DATABASE_URL, schema: SCHEMA, migrations, max: config.DB_POOL_MAX });
  const mailer = overrides.mailer ?? nodemailer.createTransport(config.SMTP_URL);
  const mailSender = new MailSenderJob(db, mailer, logger.child({ subsystem: 'mail' }), { from: config.MAIL_FROM, pollMs: config.MAIL_POLL_MS });
  const amqp = await connectAmqp(config.AMQP_URL, logger);
  // Fail fast at boot rather than run a service whose events can never leave the outbox.
  await amqp.ready(5_000);
  let relay: OutboxRelay | undefined;
  return {
    config,
    logger,
    db,
    pool,
    verifier: new InternalTokenVerifier(config.INTERNAL_JWT_PUBLIC_KEY, SERVICE_AUDIENCE),
    ctx: { db, settings: instanceSettings(config) },
    mailer,
    mailSender,
    amqp,
    start: () => {
      mailSender.start();
      relay = startOutboxRelay({
        pool,
        schema: SCHEMA,
        amqp,
        exchange: config.EVENTS_EXCHANGE,
        logger,
        enabled: config.OUTBOX_RELAY_ENABLED,
        pollIntervalMs: config.OUTBOX_POLL_MS,
      });
    },
    close: async () => {
      await relay?.stop();
      await amqp.close();
      await mailSender.stop();
      mailer.close();
      await db.destroy();
    },
  };
}
