import type { Transporter } from 'nodemailer';
import { Counter } from 'prom-client';
import { GeoIp } from '@platform/geo';
import type { HomePageReader } from '@platform/scanner';
import type { Logger } from '@platform/observability';
import { listenOf } from '@platform/config';
import {
  domainInternalRoutes,
  domainsServiceRoutes,
  onboardingInternalRoutes,
  widgetRoutes,
} from '@platform/contracts';
import { fileClock, onClock, type JobDefinition } from '@platform/jobs';
import { createMailTransport, mailJobOptions, mailJobs } from '@platform/mail';
import { API_ROLE, type ConsumerSpec, type ServiceDefinition, type ServiceRuntime } from '@platform/service';
import { approvalUrlTemplateOf, domainsConfig, instanceSettings, type DomainsConfig } from './config';
import type { DomainsContext } from './context';
import { migrations } from './db/migrations';
import { SCHEMA, type DomainsDb } from './db/tables';
import { billingClient } from './domains/clients/billing.client';
import { merchantsClient } from './domains/clients/merchants.client';
import { loadCatalogueSnapshot, saveCatalogueSnapshot } from './domains/db/catalogue.repository';
import { CatalogueView } from './domains/domain/catalogue';
import { MERCHANT_EVENTS_CONSUMER, merchantEventsConsumer } from './domains/events/merchant-events.consumer';
import { subscriptionEventsConsumer } from './domains/events/subscription-events.consumer';
import { domainHandlers } from './domains/http/domains.handlers';
import { internalHandlers } from './domains/http/internal.handlers';
import { subdomainHandlers } from './domains/http/subdomains.handlers';
import { subscriptionHandlers } from './domains/http/subscriptions.handlers';
import { emailTemplateHandlers } from './email-templates/email-templates.handlers';
import { instanceHandlers } from './instance/instance.handlers';
import { importRowsJob } from './imports/import-rows.job';
import { importHandlers } from './imports/imports.handlers';
import { onboardingHandlers } from './onboarding/onboarding.handlers';
import { pruneOnboardingJob } from './onboarding/prune-onboarding.job';
import { activationReminderJob } from './reminders/activation-reminders.service';
import { homePageReaderFromConfig, scanEngineFromConfig, type ScannerConfig } from './scanner/scan-engine';
import { scanScheduleJob } from './scanner/scan-schedule.job';
import { ScanWorker, type ScanEngine } from './scanner/scan-worker';
import { scanHandlers } from './scanner/scans.handlers';
import { domainStatsHandlers } from './stats/domain-stats.handlers';
import { WidgetSettingsCache } from './widget/settings-cache';
import { widgetHandlers } from './widget/widget.handlers';
import { findPropertyHostname } from './widget/widget.repository';

const routes = [...domainsServiceRoutes, ...domainInternalRoutes, ...onboardingInternalRoutes, ...widgetRoutes];

/**
 * DOMAINS_ROLE: api serves the routes and runs the consumers and jobs but scans nothing; scanner
 * runs scans (and sends the e-mail they queue) with no partner port; all (npm start) does both.
 */
const SCANNER = 'scanner';

/** What domains-svc's handlers, consumers, jobs and worker are built from. */
export interface DomainsServiceContext extends DomainsContext {
  mailer: Transporter;
  /** The merchant-events consumer; events pushed by merchants-svc run through its handlers too. */
  merchantEvents: ConsumerSpec<DomainsDb>;
  /** The install check's reader of home pages (its own guarded outbound client). */
  homePages: HomePageReader;
  /** The visitor's place from their address (the widget settings' regime). */
  geo: GeoIp;
  /** The built widget settings per property × regime (widget/settings-cache.ts). */
  widgetSettings: WidgetSettingsCache;
}

type Runtime = ServiceRuntime<DomainsDb, DomainsConfig>;

export interface DomainsServiceOptions {
  /** The scan engine (default @platform/scanner from the SCANNER_* settings); tests may pass another. */
  scanEngine?: (config: ScannerConfig, logger: Logger) => ScanEngine;
}

/** The settings cache, counting hits and misses in the service's metrics (widget_settings_cache_total). */
function settingsCache(config: DomainsConfig, { metrics }: Runtime): WidgetSettingsCache {
  const lookups = new Counter({
    name: 'widget_settings_cache_total',
    help: 'Widget settings answers from the in-process cache (hit) or built (miss)',
    labelNames: ['result'],
    registers: [metrics.registry],
  });
  return new WidgetSettingsCache({
    ttlMs: config.WIDGET_SETTINGS_CACHE_TTL_MS,
    maxEntries: config.WIDGET_SETTINGS_CACHE_MAX_ENTRIES,
    counters: { hit: () => lookups.inc({ result: 'hit' }), miss: () => lookups.inc({ result: 'miss' }) },
  });
}

function domainsContext(runtime: Runtime): DomainsServiceContext {
  const { config, db, call, logger } = runtime;
  const billing = billingClient(() => call('billing'));
  const catalogue = new CatalogueView({
    load: () => loadCatalogueSnapshot(db),
    save: (products) => saveCatalogueSnapshot(db, products),
    fetch: () => billing.catalogue(),
  });
  return {
    db,
    settings: instanceSettings(config),
    catalogue,
    billing,
    merchants: merchantsClient(() => call('merchants'), logger),
    mailer: createMailTransport(config),
    merchantEvents: merchantEventsConsumer(),
    homePages: homePageReaderFromConfig(config),
    geo: new GeoIp(),
    widgetSettings: settingsCache(config, runtime),
  };
}

/** The scanner role's worker (scanner/): claims queued scans and runs them. */
function scanWorker(ctx: DomainsContext, { config, logger, pool }: Runtime, options: DomainsServiceOptions) {
  const engine = options.scanEngine ?? scanEngineFromConfig;
  const log = logger.child({ subsystem: 'scanner' });
  if (config.SCANNER_ALLOW_NO_SANDBOX && config.SCANNER_MODE !== 'http')
    log.warn(
      'SCANNER_ALLOW_NO_SANDBOX=true: where its sandbox cannot work, Chromium renders scanned sites without one',
    );
  return new ScanWorker({
    ctx,
    engine: () => engine(config, log),
    logger: log,
    concurrency: config.SCANNER_CONCURRENCY,
    leaseMs: config.SCAN_LEASE_MS,
    scanTimeoutMs: config.SCANNER_SCAN_TIMEOUT_MS,
    pollMs: config.SCANNER_POLL_MS,
    maxAttempts: 3,
    listen: pool.options,
  });
}

/** The api role's jobs (the mail jobs run in every role: the scanner queues report e-mail too). */
function apiJobs(ctx: DomainsServiceContext, config: DomainsConfig, logger: Logger): JobDefinition<DomainsDb>[] {
  return [
    // billing-svc owns the catalogue; each instance refreshes its copy (kept in the database for when billing-svc is away).
    { name: 'catalogue-refresh', intervalMs: 60_000, jitterMs: 5_000, run: () => ctx.catalogue.refresh() },
    scanScheduleJob(config.SCAN_RESCAN_INTERVAL_MS),
    // Every api instance runs it; the rows and the domain's row lock make each reminder go out once.
    reminderJob(config),
    pruneOnboardingJob(),
    // Domain imports' rows (imports/): SKIP LOCKED claims, so every instance may run it.
    importRowsJob(
      ctx,
      {
        pollMs: config.IMPORT_POLL_MS,
        batch: config.IMPORT_BATCH_SIZE,
        leaseMs: config.IMPORT_LEASE_MS,
        concurrency: config.IMPORT_CONCURRENCY,
      },
      logger.child({ subsystem: 'imports' }),
    ),
  ];
}

/** The activation reminders, on a test's clock when ACTIVATION_REMINDER_CLOCK_FILE names one. */
const reminderJob = (config: DomainsConfig): JobDefinition<DomainsDb> =>
  onClock(
    activationReminderJob({
      dayMs: config.ACTIVATION_REMINDER_DAY_MS,
      widgetBaseUrl: config.WIDGET_BASE_URL,
      approvalUrlTemplate: approvalUrlTemplateOf(config),
    }),
    config.ACTIVATION_REMINDER_CLOCK_FILE ? fileClock(config.ACTIVATION_REMINDER_CLOCK_FILE) : undefined,
  );

/**
 * Companies, properties, domains, subdomains, invitations (domains/), scans (scanner/), activation
 * reminders (reminders/), the partners' owner e-mail templates (email-templates/), the instance
 * company and property (instance/) and the widget's public endpoints (widget/), on the chassis.
 */
export const createDomainsService = (
  options: DomainsServiceOptions = {},
): ServiceDefinition<DomainsDb, typeof domainsConfig, (typeof routes)[number], DomainsServiceContext> => ({
  name: 'domains-svc',
  schema: SCHEMA,
  audience: 'domains',
  listen: listenOf('domains-svc'),
  config: domainsConfig,
  roles: { env: 'DOMAINS_ROLE', workers: [SCANNER] },
  migrations,
  context: domainsContext,
  routes,
  handlers: (ctx, { logger, consumerQueue, config }) => ({
    ...domainHandlers(ctx),
    ...subdomainHandlers(ctx),
    ...subscriptionHandlers(ctx),
    ...emailTemplateHandlers(ctx),
    ...widgetHandlers(ctx, { geo: ctx.geo, settings: ctx.widgetSettings }),
    ...domainStatsHandlers(ctx),
    ...instanceHandlers(ctx),
    ...importHandlers(ctx),
    ...scanHandlers(ctx, { minIntervalMs: config.SCAN_MIN_INTERVAL_MS, homePages: ctx.homePages }),
    ...onboardingHandlers(ctx, { minIntervalMs: config.SCAN_MIN_INTERVAL_MS }),
    ...internalHandlers(ctx.db, {
      ...ctx.merchantEvents,
      queue: consumerQueue(MERCHANT_EVENTS_CONSUMER),
      schema: SCHEMA,
      logger,
    }),
  }),
  // The widget's public routes answer only to an Origin on the property's hostname (or a subdomain).
  propertyHostname: (ctx) => (propertyId) => findPropertyHostname(ctx.db, propertyId),
  consumers: (ctx, { runs }) => (runs(API_ROLE) ? [subscriptionEventsConsumer(), ctx.merchantEvents] : []),
  background: (ctx, runtime) => (runtime.runs(SCANNER) ? [scanWorker(ctx, runtime, options)] : []),
  jobs: (ctx, { config, logger, runs }) => [
    ...mailJobs<DomainsDb>(ctx.mailer, logger.child({ subsystem: 'mail' }), mailJobOptions(config)),
    ...(runs(API_ROLE) ? apiJobs(ctx, config, logger) : []),
  ],
  closeContext: async (ctx) => {
    ctx.mailer.close();
    await ctx.homePages.close();
  },
});

export const domainsService = createDomainsService();
