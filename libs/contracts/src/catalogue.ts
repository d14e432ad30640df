import { compileRoute, type RouteSpec } from './routes';
import { domainsServiceRoutes } from './domains/domains.routes';

/** Every partner-facing route of the platform; each service's contract module adds its own. */
export const ROUTES: RouteSpec[] = [...domainsServiceRoutes];
export const COMPILED_ROUTES = ROUTES.map(compileRoute);
