import { perKeyLimiter, type Coordination, type PerKeyLimiter } from '@platform/coordination';

export type { PerKeyLimiter };

/**
 * A limit of `perMinute` requests per key, named `name` (its Redis keys): the whole minute may be
 * spent at once, then requests come back as the minute goes. Shared by every gateway through the
 * coordination (REDIS_URL), else in this process's memory, holding at most `maxKeys` keys (a key
 * dropped past it starts afresh).
 */
export const perMinuteLimiter = (
  coordination: Coordination | undefined,
  name: string,
  perMinute: number,
  maxKeys = Infinity,
): PerKeyLimiter => perKeyLimiter(coordination, { name, perMinute, burst: perMinute, maxKeys });

/** The public (widget) path's limits: per client address (bounded) and per property. */
export interface PublicLimits {
  byAddress: PerKeyLimiter;
  /** Keys only for properties whose service accepted a request (the public path spends it after the answer). */
  byProperty: PerKeyLimiter;
}
