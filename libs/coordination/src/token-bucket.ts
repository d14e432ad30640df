import { createHash } from 'node:crypto';

const MINUTE_MS = 60_000;

interface Bucket {
  /** When the bucket is full again (GCRA's theoretical arrival time); at or before now: full. */
  fullAt: number;
  /** `"<limit>-in-1min"; q=..; w=60; pk=:..:`, the same for the whole life of the key. */
  policy: string;
}

export interface RateDecision {
  allowed: boolean;
  /** Header values (IETF draft-8, as express-rate-limit wrote them); retryAfter only when refused. */
  rateLimit: string;
  policy: string;
  retryAfter?: string;
}

/** A result now, or later (a shared limiter asks Redis): callers await it; the in-memory one answers at once. */
export type Eventually<T> = T | Promise<T>;

/** What a per-key limit offers, in memory (TokenBucketLimiter) or shared (SharedLimiter). */
export interface PerKeyLimiter {
  /** Spends `cost` units of the key's budget, or refuses. */
  hit(key: string, cost?: number): Eventually<RateDecision>;
  /** Whether the key has a unit left, spending nothing and keeping no state for it. */
  wouldAllow(key: string): Eventually<RateDecision>;
  /** How many keys it holds state for in this process. */
  readonly size: number;
}

/** express-rate-limit's partition key: base64 of the first 12 hex digits of sha256(key). */
const partitionKey = (key: string) =>
  Buffer.from(createHash('sha256').update(key).digest('hex').slice(0, 12)).toString('base64');

/** Units a key may spend at once by default: ten seconds' worth, or the whole minute for small limits (up to 60). */
export const defaultBurst = (perMinute: number) => Math.max(Math.ceil(perMinute / 6), Math.min(perMinute, 60));

/** One limit's GCRA parameters and how its answers are written; shared by the in-memory and the Redis limiter. */
export class Gcra {
  readonly name: string;
  /** Milliseconds one unit takes to come back. */
  readonly unitMs: number;
  /** How far ahead of now fullAt may be: the burst, in milliseconds. */
  readonly toleranceMs: number;
  readonly burst: number;

  constructor(
    readonly perMinute: number,
    burst: number = defaultBurst(perMinute),
  ) {
    this.name = `"${perMinute}-in-1min"`;
    this.burst = Math.min(burst, perMinute);
    this.unitMs = MINUTE_MS / perMinute;
    this.toleranceMs = this.burst * this.unitMs;
  }

  /** The units a call is charged: a cost above the burst counts as the burst. */
  charge(cost: number): number {
    return Math.min(cost, this.burst);
  }

  /** One GCRA step from the bucket's fullAt: whether allowed, and fullAt after it. */
  step(fullAt: number, now: number, cost: number): { allowed: boolean; fullAt: number; after: number } {
    const start = Math.max(fullAt, now);
    const after = start + this.charge(cost) * this.unitMs;
    // A millisecond of slack absorbs floating-point error in unitMs.
    const allowed = after - now <= this.toleranceMs + 1e-6;
    return { allowed, fullAt: allowed ? after : fullAt, after };
  }

  /** The answer's header values, from a step's outcome. */
  decision(policy: string, now: number, outcome: { allowed: boolean; fullAt: number; after: number }): RateDecision {
    const { allowed, fullAt, after } = outcome;
    const ahead = Math.max(fullAt, now) - now;
    const remaining = Math.floor((this.toleranceMs - ahead) / this.unitMs + 1e-9);
    return {
      allowed,
      rateLimit: `${this.name}; r=${Math.max(0, remaining)}; t=${Math.ceil(ahead / 1000)}`,
      policy,
      retryAfter: allowed ? undefined : String(Math.max(1, Math.ceil((after - this.toleranceMs - now) / 1000))),
    };
  }

  policyOf(key: string) {
    return `${this.name}; q=${this.perMinute}; w=60; pk=:${partitionKey(key)}:`;
  }
}

/**
 * Per-key limit of `perMinute` cost units a minute, refilled continuously (GCRA, a token bucket):
 * a key may spend up to `burst` units at once, then as they come back (perMinute / 60 a second),
 * so a flood is spread over the minute instead of landing at its start. In memory (each process
 * counts its own; SharedLimiter shares one budget between processes). Keys idle for a minute are
 * full again and are dropped: the maps rotate once a minute, lazily on the next hit, so no timer is
 * needed. At most `maxKeys` keys are kept: a new key past it drops the least recently started one
 * (which starts afresh if it comes back).
 */
export class TokenBucketLimiter implements PerKeyLimiter {
  private current = new Map<string, Bucket>();
  private previous = new Map<string, Bucket>();
  private rotateAt: number;
  private readonly gcra: Gcra;
  readonly burst: number;

  constructor(
    perMinute: number,
    burst: number = defaultBurst(perMinute),
    private readonly now: () => number = Date.now,
    private readonly maxKeys = Infinity,
  ) {
    this.gcra = new Gcra(perMinute, burst);
    this.burst = this.gcra.burst;
    this.rotateAt = now() + MINUTE_MS;
  }

  /** Spends `cost` units of the key's budget (a cost above the burst counts as the burst), or refuses. */
  hit(key: string, cost = 1): RateDecision {
    return this.hitOn(this.bucketOf(key, this.now()), cost);
  }

  private hitOn(bucket: Bucket, cost: number): RateDecision {
    const now = this.now();
    const outcome = this.gcra.step(bucket.fullAt, now, cost);
    bucket.fullAt = outcome.fullAt;
    return this.gcra.decision(bucket.policy, now, outcome);
  }

  /** Whether one more unit would be allowed now, without spending it or keeping any state for the key. */
  wouldAllow(key: string): RateDecision {
    this.rotate(this.now());
    const known = this.current.get(key) ?? this.previous.get(key);
    // Decided on a copy, so nothing is spent.
    return this.hitOn(known ? { ...known } : { fullAt: this.now(), policy: this.gcra.policyOf(key) }, 1);
  }

  /** The keys held now (bounded by maxKeys). */
  get size(): number {
    return this.current.size + this.previous.size;
  }

  private rotate(now: number) {
    if (now < this.rotateAt) return;
    this.previous = this.current;
    this.current = new Map();
    this.rotateAt = now + MINUTE_MS;
  }

  private bucketOf(key: string, now: number): Bucket {
    this.rotate(now);
    let bucket = this.current.get(key);
    if (!bucket) {
      bucket = this.previous.get(key) ?? { fullAt: now, policy: this.gcra.policyOf(key) };
      this.previous.delete(key);
      if (this.size >= this.maxKeys) this.evictOldest();
      this.current.set(key, bucket);
    }
    return bucket;
  }

  /** Drops the key started longest ago: the previous minute's first, else this minute's (Maps keep insertion order). */
  private evictOldest() {
    const from = this.previous.size > 0 ? this.previous : this.current;
    const oldest = from.keys().next();
    if (!oldest.done) from.delete(oldest.value);
  }
}
