import nodemailer from 'nodemailer';
import { z } from 'zod';
import { env } from '@platform/config';
import { domainsServiceRoutes } from '@platform/contracts';
import type { ServiceConfig, ServiceDefinition } from '@platform/service';
import { migrations } from './db/migrations';
import { SCHEMA, type DomainsDb } from './db/tables';
import type { DomainsServiceContext, InstanceSettings } from './domain/context';
import { domainHandlers } from './http/domains.handlers';
import { subdomainHandlers } from './http/subdomains.handlers';
import { mailJobs } from './jobs/mail-sender.job';
import { billingClient } from './clients/billing.client';
import { merchantsClient } from './clients/merchants.client';
import { subscriptionEventsConsumer } from './events/subscription-events.consumer';
import { loadCatalogueSnapshot, saveCatalogueSnapshot } from './db/catalogue.repository';
import { CatalogueView } from './domain/catalogue';
import { subscriptionHandlers } from './http/subscriptions.handlers';

/** domains-svc's own configuration, beside the chassis' (database, broker, keys, outbox...). */
const domainsConfig = {
  SMTP_URL: z.string().url().default('smtp://127.0.0.1:1025'),
  MAIL_FROM: z.string().min(3).default('Privacy Widget <no-reply@privacy-widget.local>'),
  MAIL_POLL_MS: env.durationMs(1_000),
  /** A claimed e-mail is reserved this long; the SMTP timeouts below stay under it. */
  MAIL_LEASE_MS: env.durationMs(60_000),
  /** Connection, greeting and socket timeouts of the SMTP transport. */
  SMTP_TIMEOUT_MS: env.durationMs(15_000),
  /** Sent mail (addresses and bodies) is deleted this long after sending. */
  MAIL_RETENTION_MS: env.durationMs(7 * 24 * 3_600_000),
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
type DomainsConfig = ServiceConfig & z.infer<z.ZodObject<typeof domainsConfig>>;

const instanceSettings = (config: DomainsConfig): InstanceSettings => ({
  widgetBaseUrl: config.WIDGET_BASE_URL,
  instance: { id: config.INSTANCE_ID, name: config.INSTANCE_NAME, hostname: config.INSTANCE_HOSTNAME, region: config.INSTANCE_REGION },
  systemSegmentId: config.SYSTEM_SEGMENT_ID,
  widgetVersion: config.WIDGET_VERSION,
});

/** Companies, properties, domains, subdomains, invitations and e-mail, on the chassis. */
export const domainsService: ServiceDefinition<DomainsDb, typeof domainsConfig, (typeof domainsServiceRoutes)[number], DomainsServiceContext> = {
  name: 'domains-svc',
  schema: SCHEMA,
  audience: 'domains',
  listen: { portEnv: 'DOMAINS_PORT', hostEnv: 'DOMAINS_HOST', defaultPort: 8081 },
  config: domainsConfig,
  migrations,
  context: ({ config, db, call, logger }) => {
    if (config.SMTP_TIMEOUT_MS * 3 >= config.MAIL_LEASE_MS) throw new Error('SMTP_TIMEOUT_MS must stay well under MAIL_LEASE_MS (a third at most)');
    const timeout = config.SMTP_TIMEOUT_MS;
    const mailer = nodemailer.createTransport({ url: config.SMTP_URL, connectionTimeout: timeout, greetingTimeout: timeout, socketTimeout: timeout });
    const billing = billingClient(() => call('billing'));
    const catalogue = new CatalogueView({ load: () => loadCatalogueSnapshot(db), save: (products) => saveCatalogueSnapshot(db, products), fetch: () => billing.catalogue() });
    const merchants = merchantsClient(() => call('merchants'), logger);
    return { db, settings: instanceSettings(config), mailer, catalogue, billing, merchants };
  },
  routes: domainsServiceRoutes,
  handlers: (ctx) => ({ ...domainHandlers(ctx), ...subdomainHandlers(ctx), ...subscriptionHandlers(ctx) }),
  consumers: () => [subscriptionEventsConsumer()],
  jobs: (ctx, { config, logger }) => [
    ...mailJobs(ctx.mailer, logger.child({ subsystem: 'mail' }), {
      from: config.MAIL_FROM,
      pollMs: config.MAIL_POLL_MS,
      leaseMs: config.MAIL_LEASE_MS,
      retentionMs: config.MAIL_RETENTION_MS,
    }),
    // billing-svc owns the catalogue; each instance refreshes its copy (kept in the database for when billing-svc is away).
    { name: 'catalogue-refresh', intervalMs: 60_000, jitterMs: 5_000, run: () => ctx.catalogue.refresh() },
  ],
  closeContext: (ctx) => ctx.mailer.close(),
};
