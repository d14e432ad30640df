import { z } from 'zod';
import { defaultUrlOf, env, listenOf } from '@platform/config';
import {
  consentFigurePublicRoutes,
  consentFigureRoutes,
  consentPublicRoutes,
  consentRecordRoutes,
  consentStatsRoutes,
  dataRequestPublicRoutes,
  dataRequestRoutes,
} from '@platform/contracts';
import { createMailTransport, mailConfig, mailJobOptions, mailJobs } from '@platform/mail';
import type { ServiceDefinition } from '@platform/service';
import { dataRequestHandlers } from './data-requests/data-requests.handlers';
import { dataRequestSweepJob } from './data-requests/sweep.job';
import { migrations } from './db/migrations';
import { RecordWriter } from './db/record-writer';
import { SCHEMA, type ConsentDb } from './db/tables';
import type { ConsentContext } from './domain/context';
import { GeoIp } from '@platform/geo';
import { heldRequestsJob } from './domain/held-requests.job';
import { LiveProperties, LIVE_PROPERTY_TTL_MS } from './domain/live-properties';
import { propertyHostnameLookup } from './domain/receipts.service';
import { RecordSigner, signingKeysSchema } from './domain/record-signer';
import { domainEventsConsumer } from './events/domain-events.consumer';
import { recordHandlers } from './http/records.handlers';
import { widgetHandlers } from './http/widget.handlers';
import { receiptStatsHandlers } from './stats/receipt-stats';
import { figureHandlers } from './figures/consent-figures';
import { noticeViewHandlers } from './figures/notice-views.handlers';

const consentConfig = {
  ...mailConfig,
  /** A JWKS of Ed25519 private keys: the first signs records, every one is published (a retired key stays listed). */
  RECORD_SIGNING_KEYS: signingKeysSchema,
  /** How long a live property is remembered for receipts (0: never): a deletion reaches receipts this much after the projection. */
  LIVE_PROPERTY_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(LIVE_PROPERTY_TTL_MS),
  /** Receipt inserts running at once (the rest wait and are stored together); keep it under DB_POOL_MAX. */
  RECEIPT_WRITERS: z.coerce.number().int().min(1).max(64).default(4),
  /** Receipts stored in one insert at most. */
  RECEIPT_BATCH_MAX: z.coerce.number().int().min(1).max(1_000).default(200),
  /** Data subject request e-mails one property sends one by one per hour; past it requests are held for the summary. */
  DSAR_MAIL_PER_PROPERTY_PER_HOUR: z.coerce.number().int().min(0).default(20),
  /** The same for one owner's address across all its properties. */
  DSAR_MAIL_PER_OWNER_PER_HOUR: z.coerce.number().int().min(0).default(60),
  /** How often held requests are summarised: one e-mail per property. */
  DSAR_SUMMARY_EVERY_MS: env.durationMs(60 * 60_000),
  /** Requests one client address may send per hour (all properties); past it 429. */
  DSAR_PER_CLIENT_PER_HOUR: z.coerce.number().int().min(0).default(5),
  /** Requests one property takes per hour; past it 429. */
  DSAR_PER_PROPERTY_PER_HOUR: z.coerce.number().int().min(0).default(100),
  /** Requests (so confirmation e-mails) for one requester address on one property per hour; past it 429. */
  DSAR_PER_ADDRESS_PER_HOUR: z.coerce.number().int().min(0).default(3),
  /** How often deadlines are swept: unconfirmed requests expired, reminders, overdue marks. */
  DSAR_SWEEP_EVERY_MS: env.durationMs(60_000),
  /** The gateway's public base URL: the requester's confirmation link opens its page. */
  WIDGET_BASE_URL: z.string().url().default(defaultUrlOf('gateway')),
  /** Records read per query by an export (one keyset page, written as one piece). */
  EXPORT_PAGE_SIZE: z.coerce.number().int().min(1).max(10_000).default(1_000),
};

const routes = [
  // Before the records' routes: /records/export is not a record id.
  ...consentFigureRoutes,
  ...consentRecordRoutes,
  ...consentStatsRoutes,
  ...consentPublicRoutes,
  ...consentFigurePublicRoutes,
  ...dataRequestRoutes,
  ...dataRequestPublicRoutes,
];

type Context = ConsentContext & { mailer: ReturnType<typeof createMailTransport> };

/** Consent records (signed receipts of visitors' choices) and data subject requests, on the chassis. */
export const consentService: ServiceDefinition<ConsentDb, typeof consentConfig, (typeof routes)[number], Context> = {
  name: 'consent-svc',
  schema: SCHEMA,
  audience: 'consent',
  listen: listenOf('consent-svc'),
  config: consentConfig,
  migrations,
  context: ({ db, config }) => ({
    db,
    geo: new GeoIp(),
    signer: new RecordSigner(config.RECORD_SIGNING_KEYS),
    properties: new LiveProperties(db, config.LIVE_PROPERTY_CACHE_MS),
    records: new RecordWriter(db, { maxInFlight: config.RECEIPT_WRITERS, maxBatch: config.RECEIPT_BATCH_MAX }),
    domainEvents: domainEventsConsumer(),
    mailer: createMailTransport(config),
    dsarMailLimits: {
      perPropertyPerHour: config.DSAR_MAIL_PER_PROPERTY_PER_HOUR,
      perOwnerPerHour: config.DSAR_MAIL_PER_OWNER_PER_HOUR,
    },
    dsarLimits: {
      perClientPerHour: config.DSAR_PER_CLIENT_PER_HOUR,
      perPropertyPerHour: config.DSAR_PER_PROPERTY_PER_HOUR,
      perAddressPerHour: config.DSAR_PER_ADDRESS_PER_HOUR,
    },
    widgetBaseUrl: config.WIDGET_BASE_URL,
  }),
  routes,
  handlers: (ctx, { config }) => ({
    ...recordHandlers(ctx.db),
    ...receiptStatsHandlers(ctx.db),
    ...widgetHandlers(ctx),
    ...figureHandlers(ctx.db, config.EXPORT_PAGE_SIZE),
    ...noticeViewHandlers(ctx),
    ...dataRequestHandlers(ctx),
  }),
  // The widget's public routes answer only to an Origin on the property's hostname (or a subdomain).
  propertyHostname: (ctx) => (propertyId) => propertyHostnameLookup(ctx.db, propertyId),
  consumers: (ctx) => [ctx.domainEvents],
  jobs: (ctx, { config, logger }) => [
    ...mailJobs<ConsentDb>(ctx.mailer, logger.child({ subsystem: 'mail' }), mailJobOptions(config)),
    heldRequestsJob(config.DSAR_SUMMARY_EVERY_MS),
    dataRequestSweepJob(config.DSAR_SWEEP_EVERY_MS),
  ],
  closeContext: (ctx) => ctx.mailer.close(),
};
