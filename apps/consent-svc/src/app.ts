import { buildServiceApp } from '@platform/http';
import type { Logger } from '@platform/observability';

/** Not built yet: a healthy service answering health probes; its API arrives with its issue. */
export const buildApp = (logger: Logger) => buildServiceApp({ logger, routers: [] });
