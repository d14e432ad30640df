import { serviceUrl } from '@platform/config';
import { SERVICES } from '@platform/contracts';
import type { InternalTokenMinter } from '@platform/auth';
import { ServiceClient } from '@platform/http';
import type { Logger } from '@platform/observability';
import { ServiceCaller } from '@platform/service';
import type { Config } from './config';
import type { Upstreams } from './http/forward';

/** The gateway's own calls (the customer a request names, the owner console, the widgets), through the services' caller. */
export const callerOf = (target: 'domains' | 'consent', config: Config, minter: InternalTokenMinter, logger: Logger) =>
  new ServiceCaller({
    target,
    baseUrl: serviceUrl(config, target),
    minter,
    logger: logger.child({ component: `${target}-caller` }),
    timeoutMs: config.UPSTREAM_TIMEOUT_MS,
  });

/** One client per service, with its breaker and deadline. */
export const upstreamsOf = (config: Config) =>
  Object.fromEntries(
    SERVICES.map((service) => [
      service,
      new ServiceClient({ name: service, baseUrl: serviceUrl(config, service), timeoutMs: config.UPSTREAM_TIMEOUT_MS }),
    ]),
  ) as Upstreams;
