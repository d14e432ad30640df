import { widgetRoutes } from './widget';
import { onboardingRoutes } from './onboarding/onboarding.routes';
import { compileRoute, type RouteSpec } from './routes';
import { domainsServiceRoutes } from './domains/domains.routes';
import { productRoutes } from './products/products.routes';
import { webhookRoutes } from './webhooks/webhooks.routes';
import { merchantRoutes } from './merchants/merchants.routes';
import { identityRoutes } from './identity';
import { consentPublicRoutes, consentRecordRoutes } from './consent/consent.routes';
import { consentStatsRoutes } from './consent/consent-stats.routes';
import { dataRequestPublicRoutes, dataRequestRoutes } from './consent/data-request.routes';
import { consentFigurePublicRoutes, consentFigureRoutes } from './consent/consent-figures.routes';
import { subscriptionStatsRoutes } from './billing/subscription-stats.routes';
import { webhookStatsRoutes } from './webhooks/webhook-stats.routes';

/** Every route the gateway serves (partners' and public ones); each service's contract module adds its own. */
export const ROUTES: RouteSpec[] = [
  ...domainsServiceRoutes,
  ...productRoutes,
  ...webhookRoutes,
  ...merchantRoutes,
  ...widgetRoutes,
  ...onboardingRoutes,
  // Before the records' routes: /records/export is not a record id.
  ...consentFigureRoutes,
  ...consentFigurePublicRoutes,
  ...consentRecordRoutes,
  ...consentPublicRoutes,
  ...dataRequestRoutes,
  ...dataRequestPublicRoutes,
  ...subscriptionStatsRoutes,
  ...webhookStatsRoutes,
  ...consentStatsRoutes,
  ...identityRoutes,
];
export const COMPILED_ROUTES = ROUTES.map(compileRoute);
