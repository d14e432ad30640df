import { compileRoute, type RouteSpec } from './routes';
import { domainsServiceRoutes } from './domains/domains.routes';
import { productRoutes } from './products/products.routes';
import { webhookRoutes } from './webhooks/webhooks.routes';
import { merchantRoutes } from './merchants/merchants.routes';

/** Every partner-facing route of the platform; each service's contract module adds its own. */
export const ROUTES: RouteSpec[] = [...domainsServiceRoutes, ...productRoutes, ...webhookRoutes, ...merchantRoutes];
export const COMPILED_ROUTES = ROUTES.map(compileRoute);
