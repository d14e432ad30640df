import type Redis from 'ioredis';
import { Counter, Gauge, type Registry } from 'prom-client';
import type { Logger } from '@platform/observability';
import { connectRedis } from './redis';
import { ReplicaRegistry } from './replica-registry';
import { SharedLimiter, withGcra, type LimiterHost, type SharedLimitSettings } from './shared-limiter';
import { SharedWindowThrottle, type SharedWindowSettings } from './shared-window';
import { TokenBucketLimiter, type PerKeyLimiter } from './token-bucket';
import { WindowThrottle, type HitCounter } from './window-throttle';

export interface CoordinationOptions {
  /** REDIS_URL. */
  url: string;
  /** Prefixes every key (REDIS_KEY_PREFIX), so platforms (or test runs) sharing a Redis do not meet. */
  keyPrefix: string;
  /** The replica role this process counts under, e.g. "gateway" or "webhook-worker". */
  role: string;
  logger: Logger;
  registry: Registry;
  /** Metric names start with it, e.g. "gateway" -> gateway_limits_shared. */
  metricPrefix: string;
  /** A replica is counted until its heartbeat is this old (it beats every third of it). */
  replicaTtlMs?: number;
  /** A Redis command slower than this fails and the decision is made in memory. */
  commandTimeoutMs?: number;
  now?: () => number;
}

/**
 * A process's share in the platform-wide limits: one Redis connection, its replica registry and
 * the limiters built on them. Redis is never required: while it cannot be asked, each limiter
 * decides in this process's memory (its share of the limit), logged once when that starts (warn)
 * and once when Redis answers again (info), and shown by <prefix>_limits_shared (1 shared, 0 in
 * memory) and <prefix>_limits_fallback_decisions_total.
 */
export class Coordination implements LimiterHost {
  readonly redis: ReturnType<typeof withGcra>;
  readonly replicas: ReplicaRegistry;
  readonly keyPrefix: string;
  private shared?: boolean;
  private closing = false;
  private readonly log: Logger;
  private readonly sharedGauge: Gauge;
  private readonly fallbacks: Counter<'limiter'>;

  constructor(private readonly options: CoordinationOptions) {
    this.log = options.logger.child({ component: 'coordination' });
    this.keyPrefix = options.keyPrefix;
    this.redis = withGcra(
      connectRedis({ url: options.url, commandTimeoutMs: options.commandTimeoutMs ?? 100 }, this.log),
    );
    const name = options.metricPrefix;
    this.sharedGauge = new Gauge({
      name: `${name}_limits_shared`,
      help: 'Whether limits are shared through Redis (1) or decided in this process alone (0: Redis down)',
      registers: [options.registry],
    });
    this.fallbacks = new Counter({
      name: `${name}_limits_fallback_decisions_total`,
      help: 'Limit decisions made in this process alone because Redis could not be asked, by limit',
      labelNames: ['limiter'],
      registers: [options.registry],
    });
    this.replicas = new ReplicaRegistry(this.redis as Redis, {
      keyPrefix: options.keyPrefix,
      role: options.role,
      ttlMs: options.replicaTtlMs ?? 15_000,
      now: options.now,
      onBeat: (ok, err) => this.reported(ok, err),
    });
    const live: Gauge = new Gauge({
      name: `${name}_replicas_live`,
      help: `Live processes of this role (${options.role}) by their heartbeats in Redis, the last known`,
      registers: [options.registry],
      collect: (): void => live.set(this.replicas.liveCount),
    });
    this.redis.on('close', () => this.reported(false));
    // The first heartbeat once connected (not before: boot does not wait for Redis), then every third of the TTL.
    this.redis.on('ready', () => void this.replicas.beat());
    this.replicas.start();
  }

  /** A limit shared through Redis, named in its keys. */
  limiter(settings: SharedLimitSettings): SharedLimiter {
    return new SharedLimiter(this, { now: this.options.now, ...settings });
  }

  /** A fixed-window throttle shared through Redis, named in its keys. */
  windowThrottle(settings: SharedWindowSettings): SharedWindowThrottle {
    return new SharedWindowThrottle(this, settings);
  }

  usable(): boolean {
    return this.redis.status === 'ready';
  }

  liveCount(): number {
    return this.replicas.liveCount;
  }

  reported(ok: boolean, err?: unknown): void {
    if (ok === this.shared || this.closing) return;
    this.shared = ok;
    this.sharedGauge.set(ok ? 1 : 0);
    if (ok) return void this.log.info({ replicas: this.liveCount() }, 'limits shared through Redis');
    const error = err instanceof Error ? err.message : undefined;
    this.log.warn(
      { error, replicas: this.liveCount() },
      'Redis cannot be asked: limits decided in this process, at its share of each limit, until it answers',
    );
  }

  fellBack(limiter: string): void {
    this.reported(false);
    this.fallbacks.inc({ limiter });
  }

  /** Leaves the registry and closes the connection. */
  async close(): Promise<void> {
    await this.replicas.stop();
    this.closing = true;
    this.redis.disconnect();
  }
}

/** A per-key limit: shared through Redis when the process has a coordination (REDIS_URL), else in this process's memory as before. */
export const perKeyLimiter = (coordination: Coordination | undefined, settings: SharedLimitSettings): PerKeyLimiter =>
  coordination
    ? coordination.limiter(settings)
    : new TokenBucketLimiter(settings.perMinute, settings.burst, settings.now, settings.maxKeys);

/** A fixed-window throttle: shared through Redis with a coordination, else in this process's memory (on `now`, which tests move). */
export const windowThrottle = (
  coordination: Coordination | undefined,
  settings: SharedWindowSettings & { now?: () => number },
): HitCounter =>
  coordination
    ? coordination.windowThrottle(settings)
    : new WindowThrottle(settings.limit, settings.windowMs, settings.now);
