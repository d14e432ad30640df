import { compileRoute, type RouteSpec } from './routes';
import { domainRoutes } from './domains/domains.routes';

/** Every partner-facing route of the platform; each service's contract module adds its own. */
export const ROUTES: RouteSpec[] = [...domainRoutes];
export const COMPILED_ROUTES = ROUTES.map(compileRoute);
