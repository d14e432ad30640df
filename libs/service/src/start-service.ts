import type { Pool } from 'pg';
import type { z } from 'zod';
import type { RouteSpec } from '@platform/contracts';
import { createDb, ping, type Kysely } from '@platform/db';
import { closeServer, createHttpServer, listenServer, serverPort, stopOnSignals } from '@platform/http';
import { connectAmqp } from '@platform/messaging';
import { createLogger, startTracing, type Logger, type Tracer } from '@platform/observability';
import { jobRunner, declaredQueues, startConsumers, startRelay } from './background';
import { parseServiceConfig } from './config';
import type {
  BackgroundWork,
  ConfigOf,
  RunningService,
  ServiceDefinition,
  ServiceRuntime,
  StartOptions,
} from './definition';
import { adminListener, serviceListener } from './listener';
import { createServiceMetrics, registerConsumerMetrics, registerOutboxMetrics } from './metrics';
import { assertMigrated, migrateService } from './migrate';
import { roleCheck } from './roles';
import { consumerQueue, serviceCallers } from './runtime';
import { StartedThings } from './started';

type RelayDb = { db: Kysely<unknown>; pool: Pool };

/**
 * Boots a service the one way every service boots: configuration, database as the service role
 * (migrating first only with MIGRATE_ON_BOOT), broker (ready before serving), outbox relay,
 * background work and jobs, consumers, then /portal through the dispatcher (and liveness) on its
 * port, and liveness, readiness and /metrics on its admin port (loopback unless configured). A
 * definition without routes is a worker: its public port answers only liveness.
 * Each thing started is recorded; a failed step stops them all again, last first, as stop() does.
 */
export async function startService<DB, X extends z.ZodRawShape, R extends RouteSpec, Ctx>(
  definition: ServiceDefinition<DB, X, R, Ctx>,
  options: StartOptions = {},
): Promise<RunningService<DB, ConfigOf<X>, Ctx>> {
  const { config, port, host, adminPort, adminHost, role } = parseServiceConfig(definition, options.env ?? process.env);
  const logger = options.logger ?? createLogger(definition.name, config.LOG_LEVEL);
  if (config.MIGRATE_ON_BOOT) await migrateService(definition, config.DATABASE_URL);
  const started = new StartedThings(logger);
  try {
    // First started, last stopped: spans of the stop itself are still exported. A test's tracing is the test's to stop.
    const tracing = options.tracing ?? startTracing({ serviceName: definition.name, env: options.env ?? process.env });
    if (!options.tracing) started.push('tracing', () => tracing.shutdown());
    const { tracer } = tracing;
    const { runtime, relayDb } = await connect<DB, X>(definition, { config, role, tracer }, logger, started);
    const context = (await definition.context?.(runtime)) as Ctx;
    const closeContext = definition.closeContext;
    if (closeContext) started.push('context', async () => closeContext(context));
    const queues = await startBackground(definition, context, runtime, relayDb, started);
    const server = await listenServer(
      createHttpServer(serviceListener(definition, context, runtime)),
      options.port ?? port,
      host,
    );
    started.push('http', () => closeServer(server));
    // Last: an admin /health/ready that answers means the public port is listening too.
    const adminServer = await listenServer(
      createHttpServer(adminListener(runtime, queues)),
      options.adminPort ?? adminPort,
      adminHost,
    );
    started.push('admin http', () => closeServer(adminServer));
    logger.info({ port: serverPort(server), adminPort: serverPort(adminServer) }, 'listening');
    let stopping: Promise<void> | undefined;
    const url = `http://127.0.0.1:${serverPort(server)}`;
    const adminUrl = `http://127.0.0.1:${serverPort(adminServer)}`;
    return {
      runtime,
      context,
      server,
      url,
      adminServer,
      adminUrl,
      queues,
      stop: () => (stopping ??= started.unwind()),
    };
  } catch (err) {
    await started.unwind();
    throw err;
  }
}

/** The databases (as the service role), then the broker, ready: the runtime handlers and consumers are built from. */
async function connect<DB, X extends z.ZodRawShape>(
  definition: Pick<ServiceDefinition<DB, X, RouteSpec, unknown>, 'name' | 'schema' | 'migrations' | 'roles'>,
  { config, role, tracer }: { config: ConfigOf<X>; role: string | undefined; tracer: Tracer | undefined },
  logger: Logger,
  started: StartedThings,
) {
  const { schema } = definition;
  // Runs as svc_<schema>, which PostgreSQL lets touch only this schema.
  const { db, pool } = createDb<DB>({
    url: config.DATABASE_URL,
    schema,
    max: config.DB_POOL_MAX,
    acquireTimeoutMs: config.DB_ACQUIRE_TIMEOUT_MS,
    asServiceRole: true,
  });
  // The relay's own connections (one per batch in flight; LISTEN has its own).
  const relayDb: RelayDb = createDb<unknown>({ url: config.DATABASE_URL, schema, max: 3, asServiceRole: true });
  started.push('database', () => Promise.all([db.destroy(), relayDb.db.destroy()]));
  await ping(db as Kysely<unknown>);
  if (!config.MIGRATE_ON_BOOT) await assertMigrated(db as Kysely<unknown>, definition);
  const amqp = await connectAmqp(config.AMQP_URL, logger);
  started.push('broker', () => amqp.close());
  // Fail fast at boot rather than run a service whose events can never leave the outbox.
  await amqp.ready(5_000);
  const callers = serviceCallers(definition.name, config, logger, tracer);
  started.push('service callers', callers.close);
  const metrics = createServiceMetrics(definition.name);
  const queueOf = (name?: string) => consumerQueue(config.EVENTS_EXCHANGE, definition.name, name);
  const runtime: ServiceRuntime<DB, ConfigOf<X>> = {
    name: definition.name,
    config,
    logger,
    db,
    pool,
    amqp,
    metrics,
    tracer,
    call: callers.call,
    runs: roleCheck(definition.roles, role),
    consumerQueue: queueOf,
  };
  return { runtime, relayDb };
}

/** The relay, background work and jobs, then the consumers, ready; returns every queue they declared. */
async function startBackground<DB, X extends z.ZodRawShape, Ctx>(
  definition: Pick<ServiceDefinition<DB, X, RouteSpec, Ctx>, 'schema' | 'name' | 'consumers' | 'background' | 'jobs'>,
  context: Ctx,
  runtime: ServiceRuntime<DB, ConfigOf<X>>,
  relayDb: RelayDb,
  started: StartedThings,
): Promise<string[]> {
  const { schema } = definition;
  const relay = startRelay(runtime as ServiceRuntime<unknown, ConfigOf<X>>, schema, relayDb);
  started.push('outbox relay', () => relay.stop());
  const work: BackgroundWork[] = [
    ...(definition.background?.(context, runtime) ?? []),
    jobRunner(runtime, schema, relay, definition.jobs?.(context, runtime) ?? []),
  ];
  for (const w of work) {
    w.start();
    started.push('background work', () => w.stop());
  }
  const specs = definition.consumers?.(context, runtime) ?? [];
  const consumers = startConsumers(runtime, schema, specs, (consumer) =>
    started.push('consumer', () => consumer.stop()),
  );
  // Serve only once every consumer's queues exist and are bound: an event published after boot is never missed.
  await Promise.all(consumers.map((c) => c.ready(10_000)));
  registerOutboxMetrics(runtime.metrics, schema, runtime.db as Kysely<unknown>);
  registerConsumerMetrics(
    runtime.metrics,
    runtime.amqp,
    specs.map((c) => runtime.consumerQueue(c.name)),
  );
  return declaredQueues(runtime, specs);
}

/**
 * main.ts of a service: starts it and stops it in order on SIGTERM/SIGINT (a second signal, or
 * 10 s, forces the exit). A boot failure prints its reason and exits 1.
 */
export function runService<DB, X extends z.ZodRawShape, R extends RouteSpec, Ctx>(
  definition: ServiceDefinition<DB, X, R, Ctx>,
): void {
  startService(definition).then(
    (service) => stopOnSignals(service.runtime.logger, service.stop),
    (err: unknown) => {
      console.error(err instanceof Error ? err.message : err);
      process.exit(1);
    },
  );
}
