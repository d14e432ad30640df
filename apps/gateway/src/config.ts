import { isIP } from 'node:net';
import { z } from 'zod';
import { env, parseEnv } from '@platform/config';

const url = (fallback: string) => z.string().url().default(fallback);

/** Names proxy-addr (express 'trust proxy') understands besides addresses and CIDR ranges. */
const PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/** Comma list of proxy addresses, CIDR ranges or PROXY_NAMES whose X-Forwarded-For is believed. */
const trustedProxies = z
  .string()
  .default('')
  .transform((v) => v.split(',').map((s) => s.trim()).filter(Boolean))
  .refine(
    (list) => list.every((entry) => PROXY_NAMES.includes(entry) || isIP(entry.split('/')[0]) !== 0),
    `must be a comma list of IP addresses, CIDR ranges or ${PROXY_NAMES.join('/')}`,
  );

/** The only place the gateway reads process.env. */
const configSchema = z.object({
  GATEWAY_PORT: env.port(8080),
  GATEWAY_HOST: z.string().default('127.0.0.1'),
  LOG_LEVEL: env.logLevel,
  DATABASE_URL: env.databaseUrl,
  /** Apply the gateway's migrations at boot (npm start, tests); otherwise run dist/apps/gateway/migrate.js first. */
  MIGRATE_ON_BOOT: env.bool(false),
  INTERNAL_JWT_PRIVATE_KEY: env.pem,
  TRUSTED_PROXIES: trustedProxies,
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(6000),
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1).default(1024 * 1024),
  /** How long a whole request (headers and body) may take to arrive; later: 408 and the connection is closed. */
  BODY_TIMEOUT_MS: env.durationMs(30_000),
  UPSTREAM_TIMEOUT_MS: env.durationMs(5000),
  /** How long a verified key stays cached while revocations are being listened for. */
  KEY_CACHE_TTL_MS: env.durationMs(30_000),
  /** How long an Idempotency-Key and the answer it replays are kept. */
  IDEMPOTENCY_TTL_MS: env.durationMs(24 * 60 * 60 * 1000),
  /** How long a request with an Idempotency-Key may still finish upstream after the partner got a 503 for the deadline. */
  IDEMPOTENT_COMPLETION_TIMEOUT_MS: env.durationMs(60_000),
  DOMAINS_URL: url('http://127.0.0.1:8081'),
  BILLING_URL: url('http://127.0.0.1:8082'),
  MERCHANTS_URL: url('http://127.0.0.1:8083'),
  CONSENT_URL: url('http://127.0.0.1:8084'),
  WEBHOOKS_URL: url('http://127.0.0.1:8085'),
});
export type Config = z.infer<typeof configSchema>;
export const loadConfig = (source: NodeJS.ProcessEnv = process.env): Config => parseEnv(configSchema, source);

/** The admin CLI needs only the database. */
const adminConfigSchema = z.object({ DATABASE_URL: env.databaseUrl });
export type AdminConfig = z.infer<typeof adminConfigSchema>;
export const loadAdminConfig = (source: NodeJS.ProcessEnv = process.env): AdminConfig => parseEnv(adminConfigSchema, source);
