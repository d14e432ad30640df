import type { Server } from 'node:http';
import type { Pool } from 'pg';
import type { z } from 'zod';
import type { InternalCaller } from '@platform/auth';
import type { RouteSpec, ServiceName } from '@platform/contracts';
import type { Kysely } from '@platform/db';
import type { Handlers } from '@platform/http';
import type { JobDefinition } from '@platform/jobs';
import type { AmqpConnection, ConsumerOptions } from '@platform/messaging';
import type { Logger, Tracer, Tracing } from '@platform/observability';
import type { ServiceConfig } from './config';
import type { ServiceMetrics } from './metrics';
import type { ServiceMigration } from './migrations';
import type { RolesOption } from './roles';
import type { ServiceCaller } from './service-caller';

/** What a service's handlers, consumers and background work are built from. */
export interface ServiceRuntime<DB, Cfg> {
  name: string;
  config: Cfg;
  logger: Logger;
  db: Kysely<DB>;
  pool: Pool;
  amqp: AmqpConnection;
  metrics: ServiceMetrics;
  /** Spans of this service; undefined when tracing is off (see docs/tracing.md). */
  tracer: Tracer | undefined;
  /** A client for another service (one per target, kept for the process); needs SERVICE_JWT_PRIVATE_KEY. */
  call(target: ServiceName): ServiceCaller;
  /** Whether this process runs the role: 'api' (its routes) or one of the definition's worker roles (see roles.ts). */
  runs(role: string): boolean;
  /** The queue of the service's consumer (named by the chassis), also the scope of its processed message ids, e.g. for events pushed over HTTP. */
  consumerQueue(name?: string): string;
}

/** Work that runs beside the server (a job runner, a mail sender): started after boot, stopped before the database closes. */
export interface BackgroundWork {
  start(): void;
  stop(): Promise<void>;
}

/** One consumer of the service: its bindings and typed handlers; the chassis adds the queue, connection, schema and exchange. */
export type ConsumerSpec<DB> = Omit<
  ConsumerOptions<DB>,
  'queue' | 'amqp' | 'pool' | 'db' | 'schema' | 'exchange' | 'logger' | 'tracer'
> & {
  /** Only for a second consumer of the same service, e.g. 'merchants': its queue is <exchange>.<service>.<name>. */
  name?: string;
};

/** The configuration a service runs with: the chassis' and its own. */
export type ConfigOf<X extends z.ZodRawShape> = ServiceConfig & z.infer<z.ZodObject<X>>;

export interface ServiceDefinition<DB, X extends z.ZodRawShape, R extends RouteSpec, Ctx> {
  /** Process name, e.g. billing-svc (logs, metrics). */
  name: string;
  /** Its PostgreSQL schema (and role svc_<schema>). */
  schema: string;
  /** The audience its internal tokens are minted for (the route table's service name); absent for a worker with no /portal. */
  audience?: ServiceName;
  /** Env variables naming its port and host, with the default port; the admin listener's are derived from them (adminListen). */
  listen: { portEnv: string; hostEnv: string; defaultPort: number };
  /** The service's own configuration, beside serviceConfigSchema. */
  config?: X;
  /** Its own migrations (the chassis adds its tables), keyed by the date of their commit, in ascending order. */
  migrations: Record<string, ServiceMigration>;
  /** Builds what handlers, consumers and work share (use cases' context). */
  context?: (runtime: ServiceRuntime<DB, ConfigOf<X>>) => Ctx | Promise<Ctx>;
  routes?: readonly R[];
  /**
   * The roles one image runs as, chosen by an env variable (e.g. DOMAINS_ROLE=api|scanner|all):
   * routes are served only in the api role; consumers, jobs and background work ask runtime.runs().
   */
  roles?: RolesOption;
  handlers?: (ctx: Ctx, runtime: ServiceRuntime<DB, ConfigOf<X>>) => Handlers<R, InternalCaller>;
  /**
   * For public routes with a propertyId param (the widget's): the property's hostname, undefined
   * for none. The chassis answers 404 / 403 WIDGET.ORIGIN_NOT_ALLOWED from it before the handler
   * runs, and CORS headers only for an Origin on that hostname or a subdomain (see public-routes.ts).
   */
  propertyHostname?: (
    ctx: Ctx,
    runtime: ServiceRuntime<DB, ConfigOf<X>>,
  ) => (propertyId: string) => Promise<string | undefined>;
  consumers?: (ctx: Ctx, runtime: ServiceRuntime<DB, ConfigOf<X>>) => ConsumerSpec<DB>[];
  background?: (ctx: Ctx, runtime: ServiceRuntime<DB, ConfigOf<X>>) => BackgroundWork[];
  /** Periodic and due work, run by the service's JobRunner beside the chassis' own (outbox sweep, prune). */
  jobs?: (ctx: Ctx, runtime: ServiceRuntime<DB, ConfigOf<X>>) => JobDefinition<DB>[];
  /** Closed after background work stops, before the broker and database (e.g. a mail transport). */
  closeContext?: (ctx: Ctx) => Promise<void> | void;
}

export interface RunningService<DB, Cfg, Ctx> {
  runtime: ServiceRuntime<DB, Cfg>;
  context: Ctx;
  server: Server;
  url: string;
  /** The operator listener: /health/live, /health/ready and /metrics. */
  adminServer: Server;
  adminUrl: string;
  /** Every queue its consumers declared (work, retry and parked), e.g. for a test to clean up. */
  queues: string[];
  /** Stops in order: admin HTTP, HTTP, consumers, background work, relay, context, service callers, broker, database. */
  stop(): Promise<void>;
}

export interface StartOptions {
  /** Environment to read (tests); defaults to process.env. */
  env?: NodeJS.ProcessEnv;
  /** Listen on this port instead of the configured one (0 = ephemeral, tests). */
  port?: number;
  /** The admin listener's port instead of the configured one (0 = ephemeral, tests). */
  adminPort?: number;
  logger?: Logger;
  /** Tracing of a test (e.g. an InMemorySpanExporter's); default from OTEL_TRACES_EXPORTER, off when unset. */
  tracing?: Tracing;
}
