import { z } from 'zod';
import { env, listenOf } from '@platform/config';
import { Coordination, coordinationEnv } from '@platform/coordination';
import { webhookRoutes, webhookStatsRoutes } from '@platform/contracts';
import { createOutboundClient, overridingResolver, parseResolveOverrides, systemResolver } from '@platform/outbound';
import type { ServiceDefinition } from '@platform/service';
import { migrations } from './db/migrations';
import { SCHEMA, type WebhooksDb } from './db/tables';
import { DeliveryWorker } from './delivery/delivery-worker';
import { fanOutConsumer } from './delivery/fan-out.consumer';
import type { WebhookServiceContext } from './domain/context';
import { isSecretKey, SecretBox } from './domain/secrets';
import { webhookHandlers } from './http/webhooks.handlers';
import { webhookJobs } from './jobs/webhook.jobs';
import { webhookStatsHandlers } from './stats/webhook-stats';

const routes = [...webhookRoutes, ...webhookStatsRoutes];

/** webhook-svc's own configuration, beside the chassis'. */
const webhookConfig = {
  /** 32 random bytes in base64 (openssl rand -base64 32): encrypts signing secrets at rest. Required. */
  WEBHOOK_SECRET_KEY: z
    .string()
    .min(1, 'is required (32 random bytes in base64: openssl rand -base64 32)')
    .refine(isSecretKey, 'must be 32 bytes in base64 (openssl rand -base64 32)'),
  /** Development only: endpoints on 127.0.0.0/8 and ::1 (npm start turns it on). */
  WEBHOOK_ALLOW_LOOPBACK: env.bool(false),
  WEBHOOK_HTTPS_ONLY: env.bool(false),
  /** Fixed answers for host names, "name:address,...", like curl --resolve (split-horizon setups, tests). */
  WEBHOOK_RESOLVE: z
    .string()
    .default('')
    .transform((text, ctx) => {
      try {
        return parseResolveOverrides(text);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: (err as Error).message });
        return z.NEVER;
      }
    }),
  WEBHOOK_CONNECT_TIMEOUT_MS: env.durationMs(5_000),
  WEBHOOK_TOTAL_TIMEOUT_MS: env.durationMs(15_000),
  /** Connections to an endpoint's origin stay open this long between deliveries (0: one per delivery). */
  WEBHOOK_KEEP_ALIVE_MS: z.coerce.number().int().min(0).max(60_000).default(4_000),
  /** Delay before each attempt, the first being 0: eight attempts over about 28 hours. */
  WEBHOOK_RETRY_SCHEDULE: env.durationList('0,5s,5m,30m,2h,5h,10h,10h'),
  WEBHOOK_RETRY_JITTER: z.coerce.number().min(0).max(1).default(0.2),
  WEBHOOK_LEASE_MS: env.durationMs(60_000),
  WEBHOOK_POLL_MS: env.durationMs(1_000),
  WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(10_000).default(256),
  WEBHOOK_RETRY_CONCURRENCY: z.coerce.number().int().min(1).max(10_000).default(64),
  WEBHOOK_ENDPOINT_CONCURRENCY: z.coerce.number().int().min(1).max(10_000).default(100),
  /** An endpoint's breaker opens at this share of failures (after 5 attempts in a minute) and tries again after the reset time. */
  WEBHOOK_BREAKER_ERROR_PERCENT: z.coerce.number().int().min(1).max(100).default(50),
  WEBHOOK_BREAKER_RESET_MS: env.durationMs(30_000),
  WEBHOOK_ROTATION_GRACE_MS: env.durationMs(24 * 3_600_000),
  WEBHOOK_DISABLE_AFTER_MS: env.durationMs(5 * 24 * 3_600_000),
  WEBHOOK_RETENTION_MS: env.durationMs(30 * 24 * 3_600_000),
  /** REDIS_URL, REDIS_KEY_PREFIX: split WEBHOOK_ENDPOINT_CONCURRENCY across the live workers (unset: each worker has all of it). */
  ...coordinationEnv,
};

/** The worker role: fans events out and delivers them. */
const WORKER = 'worker';

/** Webhook endpoints, fan-out of every public event, signed deliveries with retries; one image, role by WEBHOOK_ROLE (roles). */
export const webhookService: ServiceDefinition<
  WebhooksDb,
  typeof webhookConfig,
  (typeof routes)[number],
  WebhookServiceContext
> = {
  name: 'webhook-svc',
  schema: SCHEMA,
  audience: 'webhooks',
  listen: listenOf('webhook-svc'),
  config: webhookConfig,
  // WEBHOOK_ROLE: api serves /portal/webhooks, worker fans events out and delivers them, all (npm start) both.
  roles: { env: 'WEBHOOK_ROLE', workers: [WORKER] },
  migrations,
  context: ({ config, db, logger, pool, metrics, runs, tracer }) => {
    const resolve = overridingResolver(config.WEBHOOK_RESOLVE, systemResolver);
    const policy = { allowLoopback: config.WEBHOOK_ALLOW_LOOPBACK };
    const outbound = createOutboundClient({
      ...policy,
      resolve,
      connectTimeoutMs: config.WEBHOOK_CONNECT_TIMEOUT_MS,
      totalTimeoutMs: config.WEBHOOK_TOTAL_TIMEOUT_MS,
      maxResponseBytes: 64 * 1024,
      maxRedirects: 0,
      keepAliveMs: config.WEBHOOK_KEEP_ALIVE_MS,
    });
    const secrets = new SecretBox(config.WEBHOOK_SECRET_KEY);
    const coordination =
      runs(WORKER) && config.REDIS_URL !== undefined
        ? new Coordination({
            url: config.REDIS_URL,
            keyPrefix: config.REDIS_KEY_PREFIX,
            role: 'webhook-worker',
            logger,
            registry: metrics.registry,
            metricPrefix: 'webhook',
          })
        : undefined;
    const worker = runs(WORKER)
      ? new DeliveryWorker({
          db,
          logger,
          secrets,
          outbound,
          retry: { scheduleMs: config.WEBHOOK_RETRY_SCHEDULE, jitter: config.WEBHOOK_RETRY_JITTER },
          leaseMs: config.WEBHOOK_LEASE_MS,
          totalTimeoutMs: config.WEBHOOK_TOTAL_TIMEOUT_MS,
          pollMs: config.WEBHOOK_POLL_MS,
          firstConcurrency: config.WEBHOOK_CONCURRENCY,
          retryConcurrency: config.WEBHOOK_RETRY_CONCURRENCY,
          endpointConcurrency: config.WEBHOOK_ENDPOINT_CONCURRENCY,
          workers: coordination?.replicas,
          breaker: {
            volumeThreshold: 5,
            errorThresholdPercentage: config.WEBHOOK_BREAKER_ERROR_PERCENT,
            resetTimeoutMs: config.WEBHOOK_BREAKER_RESET_MS,
          },
          listen: pool.options,
          registry: metrics.registry,
          tracer,
        })
      : undefined;
    return {
      db,
      secrets,
      targets: { ...policy, httpsOnly: config.WEBHOOK_HTTPS_ONLY, resolve },
      rotationGraceMs: config.WEBHOOK_ROTATION_GRACE_MS,
      outbound,
      worker,
      coordination,
    };
  },
  routes,
  handlers: (ctx) => ({ ...webhookHandlers(ctx), ...webhookStatsHandlers(ctx) }),
  consumers: (ctx, { config }) => (ctx.worker ? [fanOutConsumer(ctx.worker, config.WEBHOOK_LEASE_MS)] : []),
  background: (ctx) => (ctx.worker ? [ctx.worker] : []),
  jobs: (_ctx, { config }) =>
    webhookJobs({ disableAfterMs: config.WEBHOOK_DISABLE_AFTER_MS, retentionMs: config.WEBHOOK_RETENTION_MS }),
  closeContext: async (ctx) => {
    await ctx.outbound.close();
    await ctx.coordination?.close();
  },
};
