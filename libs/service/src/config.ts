import { z } from 'zod';
import { adminListen, env, listenerEnv, parseEnv, serviceUrlsEnv, type Listen } from '@platform/config';
import { roleSchema, type RolesOption } from './roles';

/** Idempotency-Keys, for every service and for the gateway's own writes. */
export const idempotencyEnv = {
  /** How long an Idempotency-Key and its answer are kept (replayed to a retry). */
  IDEMPOTENCY_TTL_MS: env.durationMs(24 * 3_600_000),
  /** How long a keyed request holds its key before a retry may take it over (its process died before committing). */
  IDEMPOTENCY_LOCK_MS: env.durationMs(60_000),
};

/** What every service reads from its environment; a service adds its own variables to it. */
const serviceConfigSchema = z.object({
  LOG_LEVEL: env.logLevel,
  NODE_ENV: z.string().default('development'),
  DATABASE_URL: env.databaseUrl,
  DB_POOL_MAX: z.coerce.number().int().min(1).max(200).default(20),
  /** How long a query waits for a free connection, then 503 SERVICE.UNAVAILABLE: well within the deadlines callers give a service. */
  DB_ACQUIRE_TIMEOUT_MS: env.durationMs(1_000),
  /** Deadline of a call to another service: inside the gateway's UPSTREAM_TIMEOUT_MS (5 s), so the partner gets the callee's answer, not the gateway's time-out. */
  SERVICE_CALL_TIMEOUT_MS: env.durationMs(4_000),
  /** The gateway's public key; services refuse /portal calls without a token it signed. */
  INTERNAL_JWT_PUBLIC_KEY: env.pem,
  /** The services' own key pair: a service signs calls to another with the private key; every service trusts the public one. */
  SERVICE_JWT_PRIVATE_KEY: env.pem.optional(),
  SERVICE_JWT_PUBLIC_KEY: env.pem.optional(),
  /** Where the other services answer (calls between services): DOMAINS_URL ... WEBHOOKS_URL. */
  ...serviceUrlsEnv,
  AMQP_URL: env.amqpUrl,
  EVENTS_EXCHANGE: env.eventsExchange,
  /** false holds events in the outbox (they publish once a relay runs); used by the crash test. */
  OUTBOX_RELAY_ENABLED: env.bool(true),
  /** How often the outbox is swept for events a NOTIFY did not announce. */
  OUTBOX_POLL_MS: env.durationMs(1_000),
  /** Published outbox rows and processed message ids are kept this long, then pruned. */
  OUTBOX_RETENTION_MS: env.durationMs(7 * 24 * 3_600_000),
  PROCESSED_RETENTION_MS: env.durationMs(7 * 24 * 3_600_000),
  ...idempotencyEnv,
  /**
   * Boot applies the service's migrations (and sets up its role) first. Off by default, so
   * production can run the service as a login role that cannot change the schema and migrate
   * with `node dist/apps/<service>/migrate.js` instead; `npm start` and the tests turn it on.
   */
  MIGRATE_ON_BOOT: env.bool(false),
});
export type ServiceConfig = z.infer<typeof serviceConfigSchema>;

/**
 * A service's configuration read from the environment once: the chassis' variables, its own, its
 * ports and hosts (public and admin), and its role (see roles.ts).
 */
export function parseServiceConfig<X extends z.ZodRawShape>(
  definition: { config?: X; listen: Listen; roles?: RolesOption },
  source: NodeJS.ProcessEnv,
): {
  config: ServiceConfig & z.infer<z.ZodObject<X>>;
  port: number;
  host: string;
  adminPort: number;
  adminHost: string;
  role: string | undefined;
} {
  const { listen, roles } = definition;
  const admin = adminListen(listen);
  const schema = serviceConfigSchema.extend({
    ...(definition.config ?? {}),
    ...listenerEnv(listen),
    ...(roles ? { [roles.env]: roleSchema(roles) } : {}),
  });
  const parsed = parseEnv(schema, source) as Record<string, unknown>;
  return {
    config: parsed as ServiceConfig & z.infer<z.ZodObject<X>>,
    port: parsed[listen.portEnv] as number,
    host: parsed[listen.hostEnv] as string,
    adminPort: parsed[admin.portEnv] as number,
    adminHost: parsed[admin.hostEnv] as string,
    role: roles ? (parsed[roles.env] as string) : undefined,
  };
}
