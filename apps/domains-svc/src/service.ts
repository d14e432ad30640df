import nodemailer, { type Transporter } from 'nodemailer';
import { z } from 'zod';
import { env } from '@platform/config';
import { domainsServiceRoutes } from '@platform/contracts';
import type { ServiceConfig, ServiceDefinition } from '@platform/service';
import { migrations } from './db/migrations';
import { SCHEMA, type DomainsDb } from './db/tables';
import type { DomainsContext, InstanceSettings } from './domain/context';
import { domainHandlers } from './http/domains.handlers';
import { subdomainHandlers } from './http/subdomains.handlers';
import { MailSenderJob } from './jobs/mail-sender.job';

/** domains-svc's own configuration, beside the chassis' (database, broker, keys, outbox...). */
export const domainsConfig = {
  SMTP_URL: z.string().url().default('smtp://127.0.0.1:1025'),
  MAIL_FROM: z.string().min(3).default('Privacy Widget <no-reply@privacy-widget.local>'),
  MAIL_POLL_MS: env.durationMs(1_000),
  /** Public base URL the widget script is served from (the gateway). */
  WIDGET_BASE_URL: z
    .string()
    .url()
    .default('http://127.0.0.1:8080')
    .transform((v) => v.replace(/\/+$/, '')),
  INSTANCE_ID: z.coerce.number().int().min(0).default(1),
  INSTANCE_NAME: z.string().min(1).default('local'),
  INSTANCE_HOSTNAME: z.string().min(1).default('127.0.0.1'),
  INSTANCE_REGION: z.string().min(1).default('local'),
  SYSTEM_SEGMENT_ID: z.coerce.number().int().min(0).default(1),
  WIDGET_VERSION: z.coerce.number().int().min(1).default(1),
};
export type DomainsConfig = ServiceConfig & z.infer<z.ZodObject<typeof domainsConfig>>;

export const instanceSettings = (config: DomainsConfig): InstanceSettings => ({
  widgetBaseUrl: config.WIDGET_BASE_URL,
  instance: { id: config.INSTANCE_ID, name: config.INSTANCE_NAME, hostname: config.INSTANCE_HOSTNAME, region: config.INSTANCE_REGION },
  systemSegmentId: config.SYSTEM_SEGMENT_ID,
  widgetVersion: config.WIDGET_VERSION,
});

/** What domains-svc's handlers and background work share. */
export interface DomainsServiceContext extends DomainsContext {
  mailer: Transporter;
  mailSender: MailSenderJob;
}

/** Companies, properties, domains, subdomains, invitations and e-mail, on the chassis. */
export const domainsService: ServiceDefinition<DomainsDb, typeof domainsConfig, (typeof domainsServiceRoutes)[number], DomainsServiceContext> = {
  name: 'domains-svc',
  schema: SCHEMA,
  audience: 'domains',
  listen: { portEnv: 'DOMAINS_PORT', hostEnv: 'DOMAINS_HOST', defaultPort: 8081 },
  config: domainsConfig,
  migrations,
  context: ({ config, db, logger }) => {
    const mailer = nodemailer.createTransport(config.SMTP_URL);
    const mailSender = new MailSenderJob(db, mailer, logger.child({ subsystem: 'mail' }), { from: config.MAIL_FROM, pollMs: config.MAIL_POLL_MS });
    return { db, settings: instanceSettings(config), mailer, mailSender };
  },
  routes: domainsServiceRoutes,
  handlers: (ctx) => ({ ...domainHandlers(ctx), ...subdomainHandlers(ctx) }),
  background: (ctx) => [ctx.mailSender],
  closeContext: (ctx) => ctx.mailer.close(),
};
