/**
 * Limits that hold across replicas (libs/coordination), through Redis when REDIS_URL is set.
 *
 * ```ts
 * const coordination = new Coordination({ url, keyPrefix, role: 'gateway', logger, registry, metricPrefix: 'gateway' });
 * const limiter = perKeyLimiter(coordination, { name: 'portal-key', perMinute: 6000, burst: 1000 });
 * const rate = await limiter.hit(keyId, cost);   // RateDecision: allowed, RateLimit, RateLimit-Policy, Retry-After
 * shareOf(configuredCap, coordination.replicas)  // this process's part of a cap split across live replicas
 * coordination.replicas.onChange((count) => ...) // recompute such parts
 * ```
 *
 * Without a coordination (no REDIS_URL), perKeyLimiter is the in-memory TokenBucketLimiter, which
 * answers synchronously: nothing touches Redis.
 */
export * from './token-bucket';
export * from './replica-registry';
export * from './shared-limiter';
export * from './window-throttle';
export * from './shared-window';
export * from './coordination';
export * from './config';
