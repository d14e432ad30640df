import { TokenBucketLimiter, type RateDecision } from './rate-limiter';

/** What the public path needs of a rate limiter: one hit per request for a key. */
export interface PerKeyLimiter {
  hit(key: string): RateDecision;
}

/**
 * A limit of `perMinute` requests per key, from the gateway's limiter (the one place that names
 * its class): the whole minute may be spent at once, then requests come back as the minute goes.
 */
export const perMinuteLimiter = (perMinute: number): PerKeyLimiter => new TokenBucketLimiter(perMinute, perMinute);
