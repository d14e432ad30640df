import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { coordinationEnv } from '@platform/coordination';
import { adminListen, env, listenOf, LOOPBACK, parseEnv, serviceUrlsEnv } from '@platform/config';
import { mailConfig } from '@platform/mail';
import { idempotencyEnv } from '@platform/service';

const listen = listenOf('gateway');

/** Names proxy-addr (express 'trust proxy') understands besides addresses and CIDR ranges. */
const PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/** Comma list of proxy addresses, CIDR ranges or PROXY_NAMES whose X-Forwarded-For is believed. */
const trustedProxies = z
  .string()
  .default('')
  .transform((v) =>
    v
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  )
  .refine(
    (list) => list.every((entry) => PROXY_NAMES.includes(entry) || isIP(entry.split('/')[0]) !== 0),
    `must be a comma list of IP addresses, CIDR ranges or ${PROXY_NAMES.join('/')}`,
  );

/** The only place the gateway reads process.env. */
const configSchema = z.object({
  GATEWAY_PORT: env.port(listen.defaultPort),
  GATEWAY_HOST: z.string().default(LOOPBACK),
  /** The operator listener (readiness, /metrics): loopback unless set, never the partners' port. */
  GATEWAY_ADMIN_PORT: env.port(adminListen(listen).defaultPort),
  GATEWAY_ADMIN_HOST: z.string().default(LOOPBACK),
  LOG_LEVEL: env.logLevel,
  DATABASE_URL: env.databaseUrl,
  /** Apply the gateway's migrations at boot (npm start, tests); otherwise run dist/apps/gateway/migrate.js first. */
  MIGRATE_ON_BOOT: env.bool(false),
  INTERNAL_JWT_PRIVATE_KEY: env.pem,
  TRUSTED_PROXIES: trustedProxies,
  /** Cost units a key may spend a minute (a read 1, a write 2, a list page limit/10, a bulk change 10), refilled continuously. */
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(6000),
  /** Failed authentications a client address may make per minute; past it, failures answer 429 (valid keys are not affected). */
  AUTH_FAILURES_PER_MINUTE: z.coerce.number().int().min(1).default(100),
  /** Units a key may spend at once before the refill paces it; default ten seconds' worth (see defaultBurst). */
  RATE_LIMIT_BURST: z.coerce.number().int().min(1).optional(),
  /** Fair share: the weight of one partner's calls in flight to one service that is always its own. */
  FAIR_SHARE_MAX_IN_FLIGHT: z.coerce.number().int().min(1).default(8),
  /**
   * The weight in flight to one service (all partners) up to which a partner past its share may
   * borrow while no other partner waits; below the service's DB_POOL_MAX (20), so borrowed calls
   * never hold all of its connections.
   */
  FAIR_SHARE_SERVICE_MAX_IN_FLIGHT: z.coerce.number().int().min(1).default(16),
  /** Calls one partner may have waiting for one service; one more is refused at once (429). */
  FAIR_SHARE_MAX_QUEUED: z.coerce.number().int().min(0).default(256),
  /** How long a call may wait in its partner's queue before it is refused (429 with Retry-After). */
  FAIR_SHARE_QUEUE_TIMEOUT_MS: env.durationMs(2000),
  BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1)
    .default(1024 * 1024),
  /** How long a whole request (headers and body) may take to arrive; later: 408 and the connection is closed. */
  BODY_TIMEOUT_MS: env.durationMs(30_000),
  UPSTREAM_TIMEOUT_MS: env.durationMs(5000),
  /** How long a verified key stays cached while revocations are being listened for. */
  KEY_CACHE_TTL_MS: env.durationMs(30_000),
  /** The widget's built files (loader.js, manifest.json, the hashed bundle); next to the gateway's own dist by default. */
  WIDGET_DIST_DIR: z
    .string()
    .min(1)
    .default(path.resolve(__dirname, '..', 'widget')),
  /** The portal web app's build (index.html, assets/), served at /app/; next to the gateway's own dist by default. */
  PORTAL_DIST_DIR: z
    .string()
    .min(1)
    .default(path.resolve(__dirname, '..', 'portal')),
  /** Public (widget) requests one client address may make per minute, and requests per property per minute. */
  PUBLIC_RATE_LIMIT_PER_ADDRESS: z.coerce.number().int().min(1).default(600),
  PUBLIC_RATE_LIMIT_PER_PROPERTY: z.coerce.number().int().min(1).default(30_000),
  /** Client addresses the public limit keeps state for at most (bounded memory under a spread flood). */
  PUBLIC_RATE_LIMIT_MAX_ADDRESSES: z.coerce.number().int().min(1).default(50_000),
  /** The onboarding widgets' writes a minute (per gateway instance): registrations per client address ... */
  ONBOARDING_REGISTRATIONS_PER_ADDRESS: z.coerce.number().int().min(1).default(10),
  /** ... and scans per client address, per partner and per scanned hostname. */
  ONBOARDING_SCANS_PER_ADDRESS: z.coerce.number().int().min(1).default(5),
  ONBOARDING_SCANS_PER_PARTNER: z.coerce.number().int().min(1).default(60),
  ONBOARDING_SCANS_PER_HOSTNAME: z.coerce.number().int().min(1).default(3),
  /** The largest body a public (widget) request may send. */
  PUBLIC_BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1)
    .default(16 * 1024),
  /** Where each service answers: DOMAINS_URL ... WEBHOOKS_URL. */
  ...serviceUrlsEnv,
  /** development and test send the session cookie without Secure (plain http on 127.0.0.1); anything else with it. */
  NODE_ENV: z.string().default('production'),
  /** The portal's address: sign-in links in e-mails point to <PORTAL_URL>/sign-in#token=... */
  PORTAL_URL: z.url().default(`http://127.0.0.1:${listen.defaultPort}/app`),
  /** A portal session ends after this long without a request ... */
  SESSION_IDLE_TIMEOUT_MS: env.durationMs(2 * 3_600_000),
  /** ... and this long after sign-in in any case. */
  SESSION_MAX_AGE_MS: env.durationMs(12 * 3_600_000),
  /** Sign-in links one e-mail address, and one client address, may ask for in 15 minutes (per gateway instance). */
  SIGN_IN_LINKS_PER_EMAIL: z.coerce.number().int().min(1).default(5),
  SIGN_IN_LINKS_PER_CLIENT: z.coerce.number().int().min(1).default(30),
  /** Encrypts portal users' TOTP secrets at rest (32 bytes, base64); unset, they are stored in plain text. */
  TOTP_ENCRYPTION_KEY: z.string().min(1).optional(),
  /** How often the keys used since are written as last used (one UPDATE). */
  KEY_LAST_USED_FLUSH_MS: env.durationMs(10_000),
  /** The gateway's own writes keep their Idempotency-Key as services do: IDEMPOTENCY_TTL_MS, IDEMPOTENCY_LOCK_MS. */
  ...idempotencyEnv,
  /** Portal e-mail (sign-in links, invitations): SMTP_URL, MAIL_FROM ... as for the services. */
  ...mailConfig,
  /** REDIS_URL, REDIS_KEY_PREFIX: limits shared by every gateway (unset: each limits alone, in memory). */
  ...coordinationEnv,
});
export type Config = z.infer<typeof configSchema>;
export const loadConfig = (source: NodeJS.ProcessEnv = process.env): Config => parseEnv(configSchema, source);

/** The admin CLI needs the database, and the portal's address for the sign-in links it makes. */
const adminConfigSchema = z.object({ DATABASE_URL: env.databaseUrl, PORTAL_URL: configSchema.shape.PORTAL_URL });
export type AdminConfig = z.infer<typeof adminConfigSchema>;
export const loadAdminConfig = (source: NodeJS.ProcessEnv = process.env): AdminConfig =>
  parseEnv(adminConfigSchema, source);
