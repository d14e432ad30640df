import type { RequestListener, Server } from 'node:http';
import type { Pool } from 'pg';
import { z } from 'zod';
import { InternalTokenMinter, InternalTokenVerifier, mayCallRoute, type InternalCaller } from '@platform/auth';
import { parseEnv, env } from '@platform/config';
import type { RouteSpec, ServiceName } from '@platform/contracts';
import { createDb, migrateToLatest, ensureServiceRole, ping, sql, type Kysely, type Migration } from '@platform/db';
import { buildServiceApp, createDispatcher, createHttpServer, listenServer, serverPort, type Handlers } from '@platform/http';
import { connectAmqp, consumerQueueNames, DEFAULT_RETRY_DELAYS_MS, startConsumer, startOutboxRelay, type AmqpConnection, type Consumer, type ConsumerOptions, type OutboxRelay } from '@platform/messaging';
import { createLogger, type Logger } from '@platform/observability';
import { serviceConfigSchema, type ServiceConfig } from './config';
import { ServiceCaller } from './service-caller';
import { JobRunner, pruneChassisTables, type JobDefinition } from '@platform/jobs';
import { createServiceMetrics, registerConsumerMetrics, registerOutboxMetrics, type ServiceMetrics } from './metrics';

/** Routes under this prefix are calls between services (never routed by the gateway, not in OpenAPI). */
export const INTERNAL_PREFIX = '/internal';

/** What a service's handlers, consumers and background work are built from. */
export interface ServiceRuntime<DB, Cfg> {
  name: string;
  config: Cfg;
  logger: Logger;
  db: Kysely<DB>;
  pool: Pool;
  amqp: AmqpConnection;
  metrics: ServiceMetrics;
  /** A client for another service (one per target, kept for the process); needs SERVICE_JWT_PRIVATE_KEY. */
  call(target: ServiceName): ServiceCaller;
}

/** Work that runs beside the server (a job runner, a mail sender): started after boot, stopped before the database closes. */
export interface BackgroundWork {
  start(): void;
  stop(): Promise<void>;
}

/** One consumer of the service: its queue and typed handlers; the chassis adds the connection, schema and exchange. */
export type ConsumerSpec<DB> = Omit<ConsumerOptions<DB>, 'amqp' | 'pool' | 'db' | 'schema' | 'exchange' | 'logger'>;

export interface ServiceDefinition<DB, X extends z.ZodRawShape, R extends RouteSpec, Ctx> {
  /** Process name, e.g. billing-svc (logs, metrics). */
  name: string;
  /** Its PostgreSQL schema (and role svc_<schema>). */
  schema: string;
  /** The audience its internal tokens are minted for (the route table's service name); absent for a worker with no /portal. */
  audience?: ServiceName;
  /** Env variables naming its port and host, with the default port. */
  listen: { portEnv: string; hostEnv: string; defaultPort: number };
  /** The service's own configuration, beside serviceConfigSchema. */
  config?: X;
  migrations: Record<string, Migration>;
  /** Builds what handlers, consumers and work share (use cases' context). */
  context?: (runtime: ServiceRuntime<DB, ServiceConfig & z.infer<z.ZodObject<X>>>) => Ctx | Promise<Ctx>;
  routes?: readonly R[];
  /** Whether this process serves its routes (default true); false makes it a worker, e.g. by a role setting. */
  servesApi?: (config: ServiceConfig & z.infer<z.ZodObject<X>>) => boolean;
  handlers?: (ctx: Ctx, runtime: ServiceRuntime<DB, ServiceConfig & z.infer<z.ZodObject<X>>>) => Handlers<R, InternalCaller>;
  consumers?: (ctx: Ctx, runtime: ServiceRuntime<DB, ServiceConfig & z.infer<z.ZodObject<X>>>) => ConsumerSpec<DB>[];
  background?: (ctx: Ctx, runtime: ServiceRuntime<DB, ServiceConfig & z.infer<z.ZodObject<X>>>) => BackgroundWork[];
  /** Periodic and due work, run by the service's JobRunner beside the chassis' own (outbox sweep, prune). */
  jobs?: (ctx: Ctx, runtime: ServiceRuntime<DB, ServiceConfig & z.infer<z.ZodObject<X>>>) => JobDefinition<DB>[];
  /** Closed after background work stops, before the broker and database (e.g. a mail transport). */
  closeContext?: (ctx: Ctx) => Promise<void> | void;
}

export interface RunningService<DB, Cfg, Ctx> {
  runtime: ServiceRuntime<DB, Cfg>;
  context: Ctx;
  server: Server;
  url: string;
  /** Every queue its consumers declared (work, retry and parked), e.g. for a test to clean up. */
  queues: string[];
  /** Stops in order: HTTP, consumers, background work, relay, context, broker, database. */
  stop(): Promise<void>;
}

export interface StartOptions {
  /** Environment to read (tests); defaults to process.env. */
  env?: NodeJS.ProcessEnv;
  /** Listen on this port instead of the configured one (0 = ephemeral, tests). */
  port?: number;
  logger?: Logger;
}

/** Applies the service's migrations and sets up its role, as the URL's (admin) user. */
export async function migrateService(definition: Pick<ServiceDefinition<unknown, z.ZodRawShape, RouteSpec, unknown>, 'schema' | 'migrations'>, databaseUrl: string) {
  const admin = createDb<unknown>({ url: databaseUrl, schema: definition.schema, max: 1 });
  try {
    await ping(admin.db);
    await migrateToLatest(admin.db, definition.schema, definition.migrations);
    await ensureServiceRole(admin.db, definition.schema);
  } finally {
    await admin.db.destroy();
  }
}

/** Refuses to run on a schema that lacks some of the service's migrations (MIGRATE_ON_BOOT off). */
export async function assertMigrated(db: Kysely<unknown>, definition: { name: string; schema: string; migrations: Record<string, Migration> }) {
  let applied = new Set<string>();
  try {
    const { rows } = await sql<{ name: string }>`SELECT name FROM ${sql.id(definition.schema, 'kysely_migration')}`.execute(db);
    applied = new Set(rows.map((r) => r.name));
  } catch {
    // No migration table (or no right to read it): nothing counts as applied.
  }
  const pending = Object.keys(definition.migrations).filter((name) => !applied.has(name));
  if (pending.length > 0) {
    throw new Error(
      `schema ${definition.schema} lacks ${pending.length} migration(s) (${pending.join(', ')}): run node dist/apps/${definition.name}/migrate.js, or set MIGRATE_ON_BOOT=true`,
    );
  }
}

/**
 * Boots a service the one way every service boots: configuration, database as the service role
 * (migrating first only with MIGRATE_ON_BOOT), broker (ready before serving), token verifier,
 * outbox relay, consumers, background work, then /portal through the dispatcher with health,
 * readiness (database and broker) and /metrics. A definition without routes is a worker: it
 * serves only health and metrics.
 */
export async function startService<DB, X extends z.ZodRawShape, R extends RouteSpec, Ctx>(
  definition: ServiceDefinition<DB, X, R, Ctx>,
  options: StartOptions = {},
): Promise<RunningService<DB, ServiceConfig & z.infer<z.ZodObject<X>>, Ctx>> {
  type Cfg = ServiceConfig & z.infer<z.ZodObject<X>>;
  const source = options.env ?? process.env;
  const schema = serviceConfigSchema.extend({
    ...(definition.config ?? {}),
    [definition.listen.portEnv]: env.port(definition.listen.defaultPort),
    [definition.listen.hostEnv]: z.string().default('127.0.0.1'),
  });
  const parsed = parseEnv(schema, source) as Record<string, unknown>;
  const config = parsed as Cfg;
  const logger = options.logger ?? createLogger(definition.name, config.LOG_LEVEL);

  if (config.MIGRATE_ON_BOOT) await migrateService(definition, config.DATABASE_URL);
  // Runs as svc_<schema>, which PostgreSQL lets touch only this schema.
  const { db, pool } = createDb<DB>({ url: config.DATABASE_URL, schema: definition.schema, max: config.DB_POOL_MAX, asServiceRole: true });
  // The relay's own connections: under a burst of requests the main pool's queue is long, and
  // events must not wait in it behind the calls (one per batch in flight; LISTEN has its own).
  const relayDb = createDb<unknown>({ url: config.DATABASE_URL, schema: definition.schema, max: 3, asServiceRole: true });
  const metrics = createServiceMetrics(definition.name);
  let amqp: AmqpConnection | undefined;
  try {
    await ping(db as Kysely<unknown>);
    if (!config.MIGRATE_ON_BOOT) await assertMigrated(db as Kysely<unknown>, definition);
    amqp = await connectAmqp(config.AMQP_URL, logger);
    // Fail fast at boot rather than run a service whose events can never leave the outbox.
    await amqp.ready(5_000);
    const callers = new Map<ServiceName, ServiceCaller>();
    const call = (target: ServiceName) => {
      let caller = callers.get(target);
      if (!caller) {
        if (!config.SERVICE_JWT_PRIVATE_KEY) throw new Error(`${definition.name} calls ${target} but SERVICE_JWT_PRIVATE_KEY is not set`);
        const baseUrl = { domains: config.DOMAINS_URL, billing: config.BILLING_URL, merchants: config.MERCHANTS_URL, consent: config.CONSENT_URL, webhooks: config.WEBHOOKS_URL }[target];
        caller = new ServiceCaller({ target, baseUrl, minter: new InternalTokenMinter(config.SERVICE_JWT_PRIVATE_KEY, 60, 'services'), logger });
        callers.set(target, caller);
      }
      return caller;
    };
    const runtime: ServiceRuntime<DB, Cfg> = { name: definition.name, config, logger, db, pool, amqp, metrics, call };
    const context = (await definition.context?.(runtime)) as Ctx;

    const relay: OutboxRelay = startOutboxRelay({
      pool: relayDb.pool,
      db: relayDb.db,
      schema: definition.schema,
      amqp,
      exchange: config.EVENTS_EXCHANGE,
      logger,
      enabled: config.OUTBOX_RELAY_ENABLED,
      pollIntervalMs: config.OUTBOX_POLL_MS,
      // Woken by this process's commits (and NOTIFY); its periodic sweep is a job of the runner below.
      selfPoll: false,
    });
    const runner = new JobRunner<DB>({
      db,
      logger,
      onRun: (job, outcome, seconds) => {
        metrics.jobRuns.inc({ job, outcome });
        metrics.jobDuration.observe({ job }, seconds);
      },
    });
    const prune = pruneChassisTables(definition.schema, { outboxMs: config.OUTBOX_RETENTION_MS, processedMs: config.PROCESSED_RETENTION_MS });
    runner
      .every({ name: 'outbox-sweep', intervalMs: config.OUTBOX_POLL_MS, run: async () => relay.sweep() })
      .every({ name: 'prune-chassis-tables', intervalMs: 10 * 60_000, singleton: true, deadlineMs: 5 * 60_000, jitterMs: 60_000, run: ({ db: d, now, signal }) => prune(d as Kysely<unknown>, now, signal) });
    for (const job of definition.jobs?.(context, runtime) ?? []) runner.every(job);
    const consumerSpecs = definition.consumers?.(context, runtime) ?? [];
    const consumers: Consumer[] = consumerSpecs.map((spec) =>
      // The service's db: its statements are prepared, and its commits wake the relay (outbox writes in handlers).
      startConsumer<DB>({ ...spec, amqp: amqp!, pool, db, schema: definition.schema, exchange: config.EVENTS_EXCHANGE, logger }),
    );
    // Serve only once every consumer's queues exist and are bound: an event published after boot is never missed.
    await Promise.all(consumers.map((c) => c.ready(10_000))).catch(async (err: unknown) => {
      await Promise.all(consumers.map((c) => c.stop()));
      throw err;
    });
    registerOutboxMetrics(metrics, definition.schema, db as Kysely<unknown>);
    registerConsumerMetrics(metrics, amqp, consumerSpecs.map((c) => c.queue));
    const work = [...(definition.background?.(context, runtime) ?? []), runner];
    for (const w of work) w.start();

    const fallback = buildServiceApp({
      logger,
      routers: [],
      readiness: { database: () => ping(db as Kysely<unknown>), broker: () => amqp!.ready(1_000) },
      metrics: metrics.registry,
    });
    let listener: RequestListener = fallback;
    if (definition.routes && definition.handlers && definition.audience && (definition.servesApi?.(config) ?? true)) {
      const verifier = new InternalTokenVerifier({ gateway: config.INTERNAL_JWT_PUBLIC_KEY, services: config.SERVICE_JWT_PUBLIC_KEY }, definition.audience);
      const handlers = definition.handlers(context, runtime);
      const dispatcher = (routes: readonly R[], prefix: string, next: RequestListener, servicesOnly: boolean) =>
        createDispatcher<R, InternalCaller>({
          logger,
          routes,
          handlers,
          prefix,
          authenticate: (token) => verifier.verify(token),
          authorize: (caller, route) => mayCallRoute(caller, route, servicesOnly),
          fallback: next,
          validateResponses: config.NODE_ENV !== 'production',
          onAnswer: ({ operationId = 'unmatched', method, status, durationMs, requestId }) => {
            metrics.httpRequests.inc({ operation: operationId, method, status: String(status) });
            metrics.httpDuration.observe({ operation: operationId, method }, durationMs / 1000);
            logger.info({ requestId, method, operation: operationId, status, ms: Math.round(durationMs * 10) / 10 }, 'request');
          },
        });
      const internal = definition.routes.filter((r) => r.path.startsWith(`${INTERNAL_PREFIX}/`));
      const portal = definition.routes.filter((r) => !internal.includes(r));
      listener = dispatcher(portal, '/portal', fallback, false);
      if (internal.length > 0) listener = dispatcher(internal, INTERNAL_PREFIX, listener, true);
    }
    const port = options.port ?? (parsed[definition.listen.portEnv] as number);
    const server = await listenServer(createHttpServer(listener), port, parsed[definition.listen.hostEnv] as string);
    const url = `http://127.0.0.1:${serverPort(server)}`;
    logger.info({ port: serverPort(server) }, 'listening');

    let stopping: Promise<void> | undefined;
    const stop = () =>
      (stopping ??= (async () => {
        await new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections?.();
        const steps: [string, () => Promise<unknown>][] = [
          ['consumers', () => Promise.all(consumers.map((c) => c.stop()))],
          ['background work', () => Promise.all(work.map((w) => w.stop()))],
          ['outbox relay', () => relay.stop()],
          ['context', async () => definition.closeContext?.(context)],
          ['service callers', () => Promise.all([...callers.values()].map((c) => c.close()))],
          ['broker', () => amqp!.close()],
          ['database', () => Promise.all([db.destroy(), relayDb.db.destroy()])],
        ];
        for (const [what, step] of steps) await step().catch((err: unknown) => logger.error({ err }, `stopping ${what} failed`));
      })());
    const queues = consumerSpecs.flatMap((c) => {
      const names = consumerQueueNames(c.queue, (c.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS).length);
      return [names.work, names.parked, ...names.retry];
    });
    return { runtime, context, server, url, queues, stop };
  } catch (err) {
    await amqp?.close().catch(() => undefined);
    await Promise.all([db.destroy(), relayDb.db.destroy()]).catch(() => undefined);
    throw err;
  }
}

/**
 * main.ts of a service: starts it and stops it in order on SIGTERM/SIGINT (a second signal, or
 * 10 s, forces the exit). A boot failure prints its reason and exits 1.
 */
export function runService<DB, X extends z.ZodRawShape, R extends RouteSpec, Ctx>(definition: ServiceDefinition<DB, X, R, Ctx>): void {
  startService(definition).then(
    (service) => {
      let signalled = false;
      const onSignal = (signal: string) => {
        if (signalled) process.exit(1);
        signalled = true;
        service.runtime.logger.info({ signal }, 'shutting down');
        setTimeout(() => process.exit(1), 10_000).unref();
        void service.stop().then(() => process.exit(0));
      };
      process.on('SIGTERM', () => onSignal('SIGTERM'));
      process.on('SIGINT', () => onSignal('SIGINT'));
    },
    (err: unknown) => {
      console.error(err instanceof Error ? err.message : err);
      process.exit(1);
    },
  );
}

/** migrate.ts of a service: applies its migrations as the DATABASE_URL user and exits. */
export function runMigrations(definition: Pick<ServiceDefinition<unknown, z.ZodRawShape, RouteSpec, unknown>, 'schema' | 'migrations' | 'name'>): void {
  const { DATABASE_URL } = parseEnv(z.object({ DATABASE_URL: env.databaseUrl }));
  migrateService(definition, DATABASE_URL).then(
    () => {
      console.log(`${definition.name}: schema ${definition.schema} is up to date`);
    },
    (err: unknown) => {
      console.error(`${definition.name}: migration failed: ${err instanceof Error ? err.message : String(err)}`);
      process.exit(1);
    },
  );
}
