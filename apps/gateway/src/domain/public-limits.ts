import { TokenBucketLimiter, type RateDecision } from './rate-limiter';

/** What the public path needs of a rate limiter. */
export interface PerKeyLimiter {
  /** Spends one request of the key's budget, or refuses. */
  hit(key: string): RateDecision;
  /** Whether the key has a request left, spending nothing and keeping no state for it. */
  wouldAllow(key: string): RateDecision;
  /** How many keys it holds state for. */
  readonly size: number;
}

/**
 * A limit of `perMinute` requests per key, from the gateway's limiter (the one place that names
 * its class): the whole minute may be spent at once, then requests come back as the minute goes.
 * It holds at most `maxKeys` keys (a key dropped past it starts afresh).
 */
export const perMinuteLimiter = (perMinute: number, maxKeys = Infinity): PerKeyLimiter =>
  new TokenBucketLimiter(perMinute, perMinute, Date.now, maxKeys);

/** The public (widget) path's limits: per client address (bounded) and per property. */
export interface PublicLimits {
  byAddress: PerKeyLimiter;
  /** Keys only for properties whose service accepted a request (the public path spends it after the answer). */
  byProperty: PerKeyLimiter;
}
