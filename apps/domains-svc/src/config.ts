import { z } from 'zod';
import { env, parseEnv } from '@platform/config';

/** The only place this service reads process.env. */
export const configSchema = z.object({
  DOMAINS_PORT: env.port(8081),
  DOMAINS_HOST: z.string().default('127.0.0.1'),
  DATABASE_URL: env.databaseUrl,
  DB_POOL_MAX: z.coerce.number().int().min(1).max(200).default(20),
  INTERNAL_JWT_PUBLIC_KEY: env.pem,
  AMQP_URL: env.amqpUrl,
  EVENTS_EXCHANGE: env.eventsExchange,
  /** false holds events in the outbox (they publish once a relay runs); used by the crash test. */
  OUTBOX_RELAY_ENABLED: env.bool(true),
  OUTBOX_POLL_MS: env.durationMs(1_000),
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
  LOG_LEVEL: env.logLevel,
});
export type Config = z.infer<typeof configSchema>;
export const loadConfig = (source: NodeJS.ProcessEnv = process.env): Config => parseEnv(configSchema, source);
