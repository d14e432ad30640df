import { InternalTokenMinter } from '@platform/auth';
import {
  COMPILED_ROUTES,
  ROUTES,
  compileRoute,
  isPublicRoute,
  type CompiledRoute,
  type RouteSpec,
} from '@platform/contracts';
import type { Coordination } from '@platform/coordination';
import { createDb, ping, serviceRoleUrl, type Kysely, type Listener } from '@platform/db';
import { createLogger, type Logger } from '@platform/observability';
import {
  assertMigrated,
  IdempotencyKeys,
  migrateService,
  pruneIdempotencyKeysJob,
  type KeyedSettings,
} from '@platform/service';
import { JobRunner } from '@platform/jobs';
import { createMailTransport, mailJobOptions, mailJobs } from '@platform/mail';
import type { Config } from './config';
import { LastUsedRecorder } from './api-keys/last-used';
import { PortalKeysService } from './api-keys/portal-keys.service';
import { AuditRepository } from './audit/audit.repository';
import { IdentityRepository, SESSION_TOUCH_MS } from './identity/identity.repository';
import { IdentityService } from './identity/identity.service';
import { SessionCache } from './identity/session-cache';
import { UsersService } from './identity/users.service';
import { SettingsService } from './settings/settings.service';
import { gatewayMetrics, type GatewayMetrics } from './metrics';
import { AccessUsersService } from './owner-access/access-users.service';
import { Customers } from './owner-access/customers';
import { OwnerDomains } from './owner-console/owner-domains';
import { partnerDefaults } from './settings/partner-defaults';
import { ApiKeysRepository, type KeyCredentialRow } from './db/api-keys.repository';
import { bothSinks, listenForCacheChanges, type CacheChangeSink } from './db/cache-changes.listener';
import { migrations } from './db/migrations';
import { GATEWAY_SCHEMA, KEYS_CHANNEL, SESSIONS_CHANNEL, type GatewayDb } from './db/tables';
import { KeyAuthenticator, type KeyRecord } from './domain/key-authenticator';
import type { PublicLimits } from './domain/public-limits';
import { coordinationOf, publicLimitsOf } from './shared-limits';
import { callerOf, upstreamsOf } from './upstreams';
import type { Upstreams } from './http/forward';
import { WidgetAssets } from './http/widget-assets';
import { onboardingServices, type OnboardingServices } from './onboarding/onboarding-deps';
import type { WidgetPartners } from './onboarding/widget-partners';

export interface Deps {
  config: Config;
  logger: Logger;
  db: Kysely<GatewayDb>;
  keys: KeyAuthenticator;
  keyListener: Listener;
  /** Resolved portal sessions, kept while sessionListener is up. */
  sessions: SessionCache;
  sessionListener: Listener;
  minter: InternalTokenMinter;
  upstreams: Upstreams;
  metrics: GatewayMetrics;
  /** The partner-facing route table: routing, permissions and the OpenAPI document. */
  routes: RouteSpec[];
  compiledRoutes: CompiledRoute[];
  /** The public (widget) routes, served without an API key on their own paths. */
  publicRoutes: CompiledRoute[];
  /** The widget's static files (loader and bundle), from WIDGET_DIST_DIR. */
  assets: WidgetAssets;
  /** Limits shared with the other gateways through Redis (REDIS_URL); unset, each limit is this process's own. */
  coordination?: Coordination;
  /** The public path's rate limiters (their sizes are what the gateway holds for them). */
  publicLimits: PublicLimits;
  /** The clock of sessions, sign-in links, key expiry and rolls (tests move it). */
  now: () => number;
  identity: IdentityService;
  users: UsersService;
  portalKeys: PortalKeysService;
  settings: SettingsService;
  accessUsers: AccessUsersService;
  /** Which customer account a request names, asked of domains-svc with the partner's internal token. */
  customers: Customers;
  /** The owner console's calls for the customer's domains (domains-svc, consent-svc), as the partner. */
  ownerDomains: OwnerDomains;
  /** The onboarding widgets (onboarding/): their partners' settings, limits and calls to domains-svc. */
  onboarding: OnboardingServices;
  audit: AuditRepository;
  lastUsed: LastUsedRecorder;
  /** Where the gateway's own keyed writes keep their Idempotency-Key and answer (as a service's, libs/service). */
  idempotency: KeyedSettings;
  close(): Promise<void>;
}

export interface DepsOverrides {
  logger?: Logger;
  /** A test's own small route table instead of the platform's. */
  routes?: RouteSpec[];
  /** A clock the test moves (sign-in link and session expiry, key rolls). */
  now?: () => number;
}

export type { GatewayMetrics };

export const GATEWAY_DEFINITION = { name: 'gateway', schema: GATEWAY_SCHEMA, migrations, chassisTables: false };

/** The key as the authenticator keeps it, with the partner's settings. */
const keyRecordOf = (row: KeyCredentialRow): KeyRecord => ({
  id: row.id,
  partnerId: row.partner_id,
  prefix: row.prefix,
  secretHash: row.secret_hash,
  permissions: row.permissions,
  requiredFields: row.required_fields,
  partnerName: row.partner_name,
  ...partnerDefaults(row),
  allowedIp: row.allowed_ip,
  expiresAt: row.expires_at,
  revokedAt: row.revoked_at,
});

/**
 * The portal's side of the gateway: sign-in and sessions, the team, keys, settings, the audit log,
 * when keys were last used, its writes' Idempotency-Keys, and the runner that sends its e-mail
 * (queued with the change that makes it) and prunes ended sessions and expired keys.
 */
function portalServices(
  config: Config,
  db: Kysely<GatewayDb>,
  caches: { keys: KeyAuthenticator; sessions: SessionCache; coordination?: Coordination },
  logger: Logger,
  now: () => number,
) {
  const { keys, sessions, coordination } = caches;
  const identity = new IdentityService(
    db,
    {
      portalUrl: config.PORTAL_URL,
      sessionIdleMs: config.SESSION_IDLE_TIMEOUT_MS,
      sessionMaxAgeMs: config.SESSION_MAX_AGE_MS,
      linksPerEmail: config.SIGN_IN_LINKS_PER_EMAIL,
      linksPerClient: config.SIGN_IN_LINKS_PER_CLIENT,
      totpEncryptionKey: config.TOTP_ENCRYPTION_KEY,
      coordination,
    },
    logger.child({ component: 'identity' }),
    now,
    sessions,
  );
  const lastUsed = new LastUsedRecorder(db, config.KEY_LAST_USED_FLUSH_MS, logger, now);
  // Sign-in links and invitations are queued with the change that makes them and sent by this runner.
  const mailer = createMailTransport(config);
  const jobs = new JobRunner<GatewayDb>({ db, logger: logger.child({ component: 'jobs' }) });
  for (const job of mailJobs<GatewayDb>(mailer, logger.child({ subsystem: 'mail' }), mailJobOptions(config)))
    jobs.every(job);
  jobs.every({
    name: 'prune-sessions',
    intervalMs: 3_600_000,
    jitterMs: 300_000,
    singleton: true,
    run: ({ db: pool, now: at }) => new IdentityRepository(pool).pruneEnded(at, config.SESSION_IDLE_TIMEOUT_MS),
  });
  jobs.every(pruneIdempotencyKeysJob<GatewayDb>());
  jobs.start();
  return {
    services: {
      identity,
      users: new UsersService(db, identity, now),
      portalKeys: new PortalKeysService(db, now, (prefix) => keys.invalidate(prefix)),
      settings: new SettingsService(db, now, (trx, partnerId) => identity.sessionsChanged(trx, partnerId)),
      accessUsers: new AccessUsersService(db, identity, now),
      audit: new AuditRepository(db),
      lastUsed,
      idempotency: {
        db: db as unknown as Kysely<unknown>,
        keys: new IdempotencyKeys(db as unknown as Kysely<unknown>),
        ttlMs: config.IDEMPOTENCY_TTL_MS,
        lockMs: config.IDEMPOTENCY_LOCK_MS,
      },
    },
    async close() {
      await jobs.stop();
      mailer.close();
      await lastUsed.stop();
    },
  };
}

/** API keys by prefix, from memory while the key listener is up (the cache's rules: KeyAuthenticator). */
function keyAuthenticatorOf(db: Kysely<GatewayDb>, config: Config, now: () => number) {
  const keyRepository = new ApiKeysRepository(db);
  return new KeyAuthenticator(
    async (prefix) => {
      const row = await keyRepository.findCredentialByPrefix(prefix);
      return row && keyRecordOf(row);
    },
    config.KEY_CACHE_TTL_MS,
    now,
  );
}

/** A cache's LISTEN connection, as the gateway's service role. */
const cacheListener = (config: Config, channel: string, sink: CacheChangeSink, logger: Logger) =>
  listenForCacheChanges(serviceRoleUrl(config.DATABASE_URL, GATEWAY_SCHEMA), channel, sink, logger);

/** Resolved portal sessions, kept while the gateway LISTENs on gateway_sessions (see SessionCache). */
async function sessionCache(config: Config, metrics: GatewayMetrics, logger: Logger, partners: WidgetPartners) {
  const lookups = {
    memory: metrics.sessionLookups.labels('memory'),
    database: metrics.sessionLookups.labels('database'),
  };
  const sessions = new SessionCache({ idleMs: config.SESSION_IDLE_TIMEOUT_MS, touchMs: SESSION_TOUCH_MS }, (source) =>
    lookups[source].inc(),
  );
  const sessionListener = await cacheListener(
    config,
    SESSIONS_CHANNEL,
    // A partner's change reaches the widgets' copy of its settings on the same notice.
    bothSinks(sessions, partners),
    logger.child({ component: 'session-listener' }),
  );
  return { sessions, sessionListener };
}

/** Composition root: everything the app needs, built once; tests pass overrides. */
export async function buildDeps(config: Config, overrides: DepsOverrides = {}): Promise<Deps> {
  const logger = overrides.logger ?? createLogger('gateway', config.LOG_LEVEL);
  // Migrates as the URL's user (when asked), then runs as svc_gateway, which can touch only this schema.
  if (config.MIGRATE_ON_BOOT) await migrateService(GATEWAY_DEFINITION, config.DATABASE_URL);
  const { db } = createDb<GatewayDb>({
    url: config.DATABASE_URL,
    schema: GATEWAY_SCHEMA,
    max: 10,
    asServiceRole: true,
  });
  if (!config.MIGRATE_ON_BOOT) await assertMigrated(db as unknown as Kysely<unknown>, GATEWAY_DEFINITION);
  const now = overrides.now ?? Date.now;
  const keys = keyAuthenticatorOf(db, config, now);
  const keyListener = await cacheListener(config, KEYS_CHANNEL, keys, logger.child({ component: 'key-listener' }));
  const metrics = gatewayMetrics();
  const minter = new InternalTokenMinter(config.INTERNAL_JWT_PRIVATE_KEY);
  const domainsCaller = callerOf('domains', config, minter, logger);
  const consentCaller = callerOf('consent', config, minter, logger);
  const coordination = coordinationOf(config, logger, metrics);
  const onboarding = onboardingServices(db, config, domainsCaller, now, coordination);
  const { sessions, sessionListener } = await sessionCache(config, metrics, logger, onboarding.partners);
  const upstreams = upstreamsOf(config);
  const routes = overrides.routes ?? ROUTES;
  const compiledRoutes = overrides.routes ? routes.map(compileRoute) : COMPILED_ROUTES;
  const portal = portalServices(config, db, { keys, sessions, coordination }, logger, now);
  return {
    config,
    logger,
    db,
    keys,
    keyListener,
    sessions,
    sessionListener,
    minter,
    upstreams,
    metrics,
    routes,
    compiledRoutes,
    publicRoutes: compiledRoutes.filter((r) => isPublicRoute(r.spec)),
    assets: new WidgetAssets(config.WIDGET_DIST_DIR),
    publicLimits: publicLimitsOf(config, coordination),
    now,
    coordination,
    ...portal.services,
    customers: new Customers(domainsCaller),
    ownerDomains: new OwnerDomains({ domains: domainsCaller, consent: consentCaller, db, now }),
    onboarding,
    async close() {
      await portal.close();
      await domainsCaller.close();
      await consentCaller.close();
      await keyListener.stop();
      await sessionListener.stop();
      await Promise.all(Object.values(upstreams).map((u) => u.close()));
      await coordination?.close();
      await db.destroy();
    },
  };
}

export const readinessChecks = (deps: Deps) => ({ database: () => ping(deps.db as unknown as Kysely<unknown>) });
