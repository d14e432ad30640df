import { Coordination } from '@platform/coordination';
import type { Logger } from '@platform/observability';
import type { Config } from './config';
import { perMinuteLimiter, type PublicLimits } from './domain/public-limits';
import type { GatewayMetrics } from './metrics';

/**
 * With REDIS_URL, this gateway's part in the limits every gateway shares (it counts as a replica
 * of role "gateway", which splits the fair-share caps); without it, undefined: every limit is this
 * process's own, in memory.
 */
export const coordinationOf = (config: Config, logger: Logger, metrics: GatewayMetrics) =>
  config.REDIS_URL === undefined
    ? undefined
    : new Coordination({
        url: config.REDIS_URL,
        keyPrefix: config.REDIS_KEY_PREFIX,
        role: 'gateway',
        logger,
        registry: metrics.registry,
        metricPrefix: 'gateway',
      });

/** The public (widget) path's limits: per client address (bounded in memory) and per property. */
export const publicLimitsOf = (config: Config, coordination: Coordination | undefined): PublicLimits => ({
  byAddress: perMinuteLimiter(
    coordination,
    'public-address',
    config.PUBLIC_RATE_LIMIT_PER_ADDRESS,
    config.PUBLIC_RATE_LIMIT_MAX_ADDRESSES,
  ),
  byProperty: perMinuteLimiter(coordination, 'public-property', config.PUBLIC_RATE_LIMIT_PER_PROPERTY),
});
