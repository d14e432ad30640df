import { serviceUrl } from '@platform/config';
import type { ServiceName } from '@platform/contracts';
import { InternalTokenMinter } from '@platform/auth';
import type { Logger, Tracer } from '@platform/observability';
import type { ServiceConfig } from './config';
import { ServiceCaller } from './service-caller';

/**
 * The queue the chassis names for a consumer of a service: <exchange>.<service>, and
 * <exchange>.<service>.<name> for another consumer of the same service.
 */
export const consumerQueue = (exchange: string, service: string, name?: string) =>
  name === undefined ? `${exchange}.${service}` : `${exchange}.${service}.${name}`;

/** Clients for the other services, one per target, made on first use and closed together. */
export function serviceCallers(name: string, config: ServiceConfig, logger: Logger, tracer?: Tracer) {
  const callers = new Map<ServiceName, ServiceCaller>();
  const call = (target: ServiceName) => {
    let caller = callers.get(target);
    if (!caller) {
      if (!config.SERVICE_JWT_PRIVATE_KEY)
        throw new Error(`${name} calls ${target} but SERVICE_JWT_PRIVATE_KEY is not set`);
      caller = new ServiceCaller({
        target,
        baseUrl: serviceUrl(config, target),
        minter: new InternalTokenMinter(config.SERVICE_JWT_PRIVATE_KEY, 60, 'services'),
        logger,
        tracer,
        timeoutMs: config.SERVICE_CALL_TIMEOUT_MS,
      });
      callers.set(target, caller);
    }
    return caller;
  };
  const close = () => Promise.all([...callers.values()].map((c) => c.close()));
  return { call, close };
}
