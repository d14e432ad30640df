import { z } from 'zod';
import { defaultUrlOf, listenOf } from '@platform/config';
import { domainInternalRoutes, domainsServiceRoutes, widgetRoutes } from '@platform/contracts';
import type { JobDefinition } from '@platform/jobs';
import type { ServiceConfig, ServiceDefinition } from '@platform/service';
import { migrations } from './db/migrations';
import { SCHEMA, type DomainsDb } from './db/tables';
import type { DomainsServiceContext, InstanceSettings } from './domain/context';
import { domainHandlers } from './http/domains.handlers';
import { subdomainHandlers } from './http/subdomains.handlers';
import { createMailTransport, mailConfig, mailJobOptions, mailJobs } from '@platform/mail';
import { billingClient } from './clients/billing.client';
import { merchantsClient } from './clients/merchants.client';
import { subscriptionEventsConsumer } from './events/subscription-events.consumer';
import { MERCHANT_EVENTS_CONSUMER, merchantEventsConsumer } from './events/merchant-events.consumer';
import { internalHandlers } from './http/internal.handlers';
import { loadCatalogueSnapshot, saveCatalogueSnapshot } from './db/catalogue.repository';
import { CatalogueView } from './domain/catalogue';
import { subscriptionHandlers } from './http/subscriptions.handlers';
import { widgetHandlers } from './http/widget.handlers';
import { findPropertyHostname } from './db/widget.repository';
import { activationReminderJob } from './domain/activation-reminders.service';
import { scanHandlers } from './http/scans.handlers';
import { scanRequestsConsumer } from './events/scan-requests.consumer';
import { ScanWorker, type ScanEngine } from './domain/scan-worker';
import { scanEngineFromConfig, scannerConfig, type ScannerConfig } from './domain/scan-engine';
import { queueScheduledScans } from './db/scans.repository';

/** domains-svc's own configuration, beside the chassis' (database, broker, keys, outbox...). */
const domainsConfig = {
  ...mailConfig,
  /** Public base URL the widget script is served from (the gateway). */
  WIDGET_BASE_URL: z
    .string()
    .url()
    .default(defaultUrlOf('gateway'))
    .transform((v) => v.replace(/\/+$/, '')),
  INSTANCE_ID: z.coerce.number().int().min(0).default(1),
  INSTANCE_NAME: z.string().min(1).default('local'),
  INSTANCE_HOSTNAME: z.string().min(1).default('127.0.0.1'),
  INSTANCE_REGION: z.string().min(1).default('local'),
  SYSTEM_SEGMENT_ID: z.coerce.number().int().min(0).default(1),
  WIDGET_VERSION: z.coerce.number().int().min(1).default(1),
  /** The length of an activation reminder's "day" (day 2, 7, 14, 30): tests and demos shorten it. */
  ACTIVATION_REMINDER_DAY_MS: z.coerce.number().int().min(1).default(86_400_000),
  /** The reminders' approval_url: {property_id}, {domain_id} and {domain_name} are filled in. */
  ACTIVATION_APPROVAL_URL: z.string().min(1).default('https://{domain_name}/'),
  /** api: the routes, consumers and jobs but no scans; scanner: runs scans (and sends mail) only; all: both (npm start). */
  DOMAINS_ROLE: z.enum(['api', 'scanner', 'all']).default('all'),
  ...scannerConfig,
};
type DomainsConfig = ServiceConfig & z.infer<z.ZodObject<typeof domainsConfig>>;

const instanceSettings = (config: DomainsConfig): InstanceSettings => ({
  widgetBaseUrl: config.WIDGET_BASE_URL,
  instance: {
    id: config.INSTANCE_ID,
    name: config.INSTANCE_NAME,
    hostname: config.INSTANCE_HOSTNAME,
    region: config.INSTANCE_REGION,
  },
  systemSegmentId: config.SYSTEM_SEGMENT_ID,
  widgetVersion: config.WIDGET_VERSION,
});

const routes = [...domainsServiceRoutes, ...domainInternalRoutes, ...widgetRoutes];

const servesApi = (config: DomainsConfig) => config.DOMAINS_ROLE !== 'scanner';
const runsScans = (config: DomainsConfig) => config.DOMAINS_ROLE !== 'api';

/** Continuous scanning: properties with has_continuous_scanning get a SCHEDULE scan every SCAN_RESCAN_INTERVAL_MS. */
const scanScheduleJob = (config: DomainsConfig): JobDefinition<DomainsDb> => ({
  name: 'scan-schedule',
  intervalMs: Math.min(60_000, config.SCAN_RESCAN_INTERVAL_MS),
  jitterMs: 1_000,
  singleton: true,
  run: ({ db, now }) => queueScheduledScans(db, { now, intervalMs: config.SCAN_RESCAN_INTERVAL_MS, limit: 500 }),
});

/** The scanner role: free slots are filled with queued scans every SCANNER_POLL_MS (the scans run on, outside the job's run). */
const scanClaimJob = (worker: ScanWorker, config: DomainsConfig): JobDefinition<DomainsDb> => ({
  name: 'scan-claim',
  intervalMs: config.SCANNER_POLL_MS,
  deadlineMs: 30_000,
  run: () => worker.fill(),
});

export interface DomainsServiceOptions {
  /** The scan engine (default @platform/scanner from the SCANNER_* settings); tests may pass another. */
  scanEngine?: (config: ScannerConfig) => ScanEngine;
}

/** Companies, properties, domains, subdomains, invitations, scans and e-mail, on the chassis. */
export const createDomainsService = (
  options: DomainsServiceOptions = {},
): ServiceDefinition<DomainsDb, typeof domainsConfig, (typeof routes)[number], DomainsServiceContext> => ({
  name: 'domains-svc',
  schema: SCHEMA,
  audience: 'domains',
  listen: listenOf('domains-svc'),
  config: domainsConfig,
  migrations,
  context: ({ config, db, call, logger }) => {
    const mailer = createMailTransport(config);
    const billing = billingClient(() => call('billing'));
    const catalogue = new CatalogueView({
      load: () => loadCatalogueSnapshot(db),
      save: (products) => saveCatalogueSnapshot(db, products),
      fetch: () => billing.catalogue(),
    });
    const merchants = merchantsClient(() => call('merchants'), logger);
    const base = { db, settings: instanceSettings(config), catalogue, billing, merchants };
    // A lease shorter than a scan would hand a live worker's scan to another.
    if (runsScans(config) && config.SCAN_LEASE_MS <= config.SCANNER_SCAN_TIMEOUT_MS)
      throw new Error('SCAN_LEASE_MS must be longer than SCANNER_SCAN_TIMEOUT_MS');
    const engine = options.scanEngine ?? scanEngineFromConfig;
    const scanWorker = runsScans(config)
      ? new ScanWorker({
          ctx: base,
          engine: () => engine(config),
          logger: logger.child({ subsystem: 'scanner' }),
          concurrency: config.SCANNER_CONCURRENCY,
          leaseMs: config.SCAN_LEASE_MS,
          maxAttempts: 3,
        })
      : undefined;
    return { ...base, mailer, merchantEvents: merchantEventsConsumer(), scanWorker };
  },
  routes,
  servesApi,
  handlers: (ctx, { logger, consumerQueue, config }) => ({
    ...domainHandlers(ctx),
    ...subdomainHandlers(ctx),
    ...subscriptionHandlers(ctx),
    ...widgetHandlers(ctx),
    ...scanHandlers(ctx, { minIntervalMs: config.SCAN_MIN_INTERVAL_MS }),
    ...internalHandlers(ctx.db, {
      ...ctx.merchantEvents,
      queue: consumerQueue(MERCHANT_EVENTS_CONSUMER),
      schema: SCHEMA,
      logger,
    }),
  }),
  // The widget's public routes answer only to an Origin on the property's hostname (or a subdomain).
  propertyHostname: (ctx) => (propertyId) => findPropertyHostname(ctx.db, propertyId),
  consumers: (ctx, { config }) =>
    servesApi(config) ? [subscriptionEventsConsumer(), ctx.merchantEvents, scanRequestsConsumer()] : [],
  jobs: (ctx, { config, logger }) => [
    ...mailJobs<DomainsDb>(ctx.mailer, logger.child({ subsystem: 'mail' }), mailJobOptions(config)),
    ...(servesApi(config)
      ? // billing-svc owns the catalogue; each instance refreshes its copy (kept in the database for when billing-svc is away).
        [
          { name: 'catalogue-refresh', intervalMs: 60_000, jitterMs: 5_000, run: () => ctx.catalogue.refresh() },
          scanScheduleJob(config),
          // Every api instance runs it; the rows and the domain's row lock make each reminder go out once.
          activationReminderJob({
            dayMs: config.ACTIVATION_REMINDER_DAY_MS,
            widgetBaseUrl: config.WIDGET_BASE_URL,
            approvalUrlTemplate: config.ACTIVATION_APPROVAL_URL,
          }),
        ]
      : []),
    ...(ctx.scanWorker ? [scanClaimJob(ctx.scanWorker, config)] : []),
  ],
  closeContext: async (ctx) => {
    await ctx.scanWorker?.close();
    ctx.mailer.close();
  },
});

export const domainsService = createDomainsService();
