import type Redis from 'ioredis';
import { Gcra, TokenBucketLimiter, type PerKeyLimiter, type RateDecision } from './token-bucket';

/**
 * One GCRA step in Redis, atomic (a script), the same arithmetic as Gcra.step: the key holds the
 * bucket's fullAt (GCRA's theoretical arrival time, ms) and expires when the bucket is full again.
 * The clock is Redis's own (TIME), one for every gateway whatever their clocks; a test passes its
 * own (ARGV[1]) to move it.
 * Written as one script rather than rate-limiter-flexible's RateLimiterRedis: that one counts
 * fixed windows (points per duration), which cannot give the continuous refill, the burst and the
 * exact RateLimit/Retry-After values of the in-memory limiter.
 * ARGV: now ('' for Redis's clock), unitMs, toleranceMs, charged units, peek (1: decide only, spend nothing).
 * Returns: allowed (1/0), fullAt after the step, `after` (for Retry-After) and now, in ms, as
 * strings (Redis would truncate Lua numbers to integers).
 */
const GCRA_SCRIPT = `
local now = tonumber(ARGV[1])
if not now then
  local time = redis.call('TIME')
  now = tonumber(time[1]) * 1000 + tonumber(time[2]) / 1000
end
local unit = tonumber(ARGV[2])
local tolerance = tonumber(ARGV[3])
local cost = tonumber(ARGV[4])
local stored = redis.call('GET', KEYS[1])
local full_at = stored and tonumber(stored) or now
local start = math.max(full_at, now)
local after = start + cost * unit
local allowed = (after - now) <= tolerance + 1e-6
if allowed then
  full_at = after
  if ARGV[5] ~= '1' then
    redis.call('SET', KEYS[1], string.format('%.17g', after), 'PX', math.max(1, math.ceil(after - now)))
  end
end
return { allowed and 1 or 0, string.format('%.17g', full_at), string.format('%.17g', after), string.format('%.17g', now) }
`;

type GcraReply = [number, string, string, string];
type GcraRedis = Redis & {
  gcraStep(
    key: string,
    now: number | '',
    unitMs: number,
    toleranceMs: number,
    cost: number,
    peek: 0 | 1,
  ): Promise<GcraReply>;
};

/** Registers the script once per connection (ioredis sends EVALSHA, and the script itself on NOSCRIPT). */
export function withGcra(redis: Redis): GcraRedis {
  if (!('gcraStep' in redis)) redis.defineCommand('gcraStep', { numberOfKeys: 1, lua: GCRA_SCRIPT });
  return redis as GcraRedis;
}

/** What a shared limiter needs of the process's coordination: Redis while it answers, and the live count for the fallback. */
export interface LimiterHost {
  redis: GcraRedis;
  /** Whether Redis is to be asked now (connected); otherwise the fallback answers at once. */
  usable(): boolean;
  /** Live processes sharing the limit (at least 1), the last known. */
  liveCount(): number;
  /** Each Redis answer (true) or failure (false): the up/down state, its log lines and gauge. */
  reported(ok: boolean, err?: unknown): void;
  /** A decision made in memory because Redis could not be asked. */
  fellBack(limiter: string): void;
  keyPrefix: string;
}

export interface SharedLimitSettings {
  /** Names the limit in Redis keys and metrics, e.g. "portal-key". */
  name: string;
  perMinute: number;
  burst?: number;
  /** Keys the in-memory fallback holds at most. */
  maxKeys?: number;
  /** A test's clock; unset, Redis's (and the fallback's Date.now). */
  now?: () => number;
}

/**
 * A per-key GCRA limit shared by every process through Redis: one round trip per decision. While
 * Redis cannot be asked (down, or slower than the command timeout), this process decides alone
 * with its own TokenBucketLimiter at the limit divided by the last known number of live processes,
 * so together they still give about the limit; it goes back to Redis by itself once it answers.
 */
export class SharedLimiter implements PerKeyLimiter {
  private readonly gcra: Gcra;
  private fallback?: { limiter: TokenBucketLimiter; divisor: number };

  constructor(
    private readonly host: LimiterHost,
    private readonly settings: SharedLimitSettings,
  ) {
    this.gcra = new Gcra(settings.perMinute, settings.burst);
  }

  hit(key: string, cost = 1): Promise<RateDecision> {
    return this.decide(key, cost, 0);
  }

  wouldAllow(key: string): Promise<RateDecision> {
    return this.decide(key, 1, 1);
  }

  /** Keys the fallback holds (none while Redis answers). */
  get size(): number {
    return this.fallback?.limiter.size ?? 0;
  }

  private async decide(key: string, cost: number, peek: 0 | 1): Promise<RateDecision> {
    if (!this.host.usable()) return this.inMemory(key, cost, peek);
    const { unitMs, toleranceMs } = this.gcra;
    const redisKey = `${this.host.keyPrefix}limit:${this.settings.name}:${key}`;
    try {
      const [allowed, fullAt, after, now] = await this.host.redis.gcraStep(
        redisKey,
        this.settings.now?.() ?? '',
        unitMs,
        toleranceMs,
        this.gcra.charge(cost),
        peek,
      );
      this.host.reported(true);
      const outcome = { allowed: allowed === 1, fullAt: Number(fullAt), after: Number(after) };
      return this.gcra.decision(this.gcra.policyOf(key), Number(now), outcome);
    } catch (err) {
      this.host.reported(false, err);
      return this.inMemory(key, cost, peek);
    }
  }

  private inMemory(key: string, cost: number, peek: 0 | 1): RateDecision {
    this.host.fellBack(this.settings.name);
    const limiter = this.fallbackLimiter();
    return peek ? limiter.wouldAllow(key) : limiter.hit(key, cost);
  }

  /** This process's share of the limit, rebuilt when the live count changed since it was made. */
  private fallbackLimiter(): TokenBucketLimiter {
    const divisor = Math.max(1, this.host.liveCount());
    if (this.fallback?.divisor !== divisor) {
      const { perMinute, maxKeys, now } = this.settings;
      const share = (n: number) => Math.max(1, Math.ceil(n / divisor));
      const limiter = new TokenBucketLimiter(share(perMinute), share(this.gcra.burst), now, maxKeys);
      this.fallback = { limiter, divisor };
    }
    return this.fallback.limiter;
  }
}
