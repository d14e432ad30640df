import type { IncomingMessage, ServerResponse } from 'node:http';
import type { InternalTokenMinter } from '@platform/auth';
import { errorObject, isUuid, matchRoute, type CompiledRoute, type RouteSpec } from '@platform/contracts';
import { errorHeadersOf, errorObjectOf, sendError } from '@platform/http';
import { clientAddressKey } from '../domain/failed-auth-throttle';
import type { PublicLimits } from '../domain/public-limits';
import type { RateDecision } from '@platform/coordination';
import { forward, type ForwardDeps } from './forward';
import { routedOperation } from './portal-route';
import { bodyReader } from './request-body';
import { WidgetAssets } from './widget-assets';
import type { OnboardingRequests } from '../onboarding/onboarding-requests';

export interface PublicDeps extends ForwardDeps {
  /** The public routes of the route table (access 'public'). */
  routes: CompiledRoute[];
  minter: InternalTokenMinter;
  assets: WidgetAssets;
  limits: PublicLimits;
  bodyLimitBytes: number;
  clientIp(req: IncomingMessage): string;
  /** The onboarding widgets' routes (service 'gateway'): see onboarding/onboarding-requests.ts. */
  onboarding: OnboardingRequests;
}

export type PublicHandler = (req: IncomingMessage, res: ServerResponse, requestId: string) => Promise<void>;

/** Request headers a public call carries on to its service; the rest (cookies included) stay here. */
const FORWARDED_HEADERS = [
  'origin',
  'accept',
  'content-type',
  'if-none-match',
  'access-control-request-method',
  'access-control-request-headers',
] as const;

const pathOf = (url: string) => {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
};

/**
 * The public paths (the widget's, no API key), on plain node:http like /portal: static files ->
 * rate limit per client address -> route (a CORS preflight by the method it asks about) -> a
 * property id that is not a UUID is 404 -> the property's budget must have a request left -> small
 * body -> forward with the public token, the client address and the Origin. The service decides
 * the Origin rule and CORS headers (see libs/service public-routes.ts); the property's budget is
 * spent only once it did not refuse (403 foreign Origin, 404 no such property), so strangers
 * cannot use up a property's budget and no state is kept for made-up ids. The onboarding widgets'
 * routes (a partner's, not a property's) are answered by the gateway itself (onboarding/).
 */
export function publicHandler(deps: PublicDeps): PublicHandler {
  const { byAddress, byProperty } = deps.limits;
  const readBody = bodyReader(deps.bodyLimitBytes);

  async function handle(req: IncomingMessage, res: ServerResponse, requestId: string) {
    const pathname = pathOf(req.url ?? '/');
    if (WidgetAssets.isStaticPath(pathname)) {
      routedOperation.set(res, 'widgetStaticFile');
      return deps.assets.serve(req, res, pathname);
    }
    const ip = deps.clientIp(req);
    // An IPv6 visitor counts by /64, so rotating addresses inside one network does not reset the count.
    if (!withinLimit(await byAddress.hit(clientAddressKey(ip)), res)) return;
    const routed = publicRoute(deps.routes, req, res, pathname);
    if (!routed) return;
    routedOperation.set(res, routed.spec.operationId);
    // The onboarding widgets' calls: the gateway owns their partner's settings and answers them.
    if (routed.spec.service === 'gateway')
      return deps.onboarding(req, res, { ...routed, ip, readBody: () => readBody(req, res) });
    const propertyId = routed.params.propertyId?.toLowerCase();
    // The services' ids are UUIDs: anything else is no such property (as the service would answer).
    if (propertyId !== undefined && !isUuid(propertyId))
      return void sendError(res, errorObject('RESOURCE.NOT_FOUND', 'The property does not exist.'));
    if (propertyId !== undefined && !withinLimit(await byProperty.wouldAllow(propertyId), res)) return;
    const body = req.method === 'OPTIONS' ? undefined : await readBody(req, res);
    const service = routed.spec.service;
    // The public token (no partner, no permission), the client address and the Origin.
    const token = deps.minter.mintPublic(service);
    await forward(deps, req, res, { service, token, ip, requestId, headers: publicHeaders(req, body), body });
    if (propertyId !== undefined && !REFUSED_FOR_PROPERTY.has(res.statusCode)) await byProperty.hit(propertyId);
  }

  return (req, res, requestId) =>
    handle(req, res, requestId).catch((err: unknown) => {
      sendError(res, errorObjectOf(err, deps.logger.child({ requestId })), errorHeadersOf(err));
    });
}

/** The service's answers that refuse a request for its property: a foreign Origin (403), no such property (404). */
const REFUSED_FOR_PROPERTY = new Set([403, 404]);

/** Over the limit, answers 429 RATE.LIMITED with Retry-After and says no. */
function withinLimit(rate: RateDecision, res: ServerResponse): boolean {
  if (rate.retryAfter === undefined) return true;
  res.setHeader('Retry-After', rate.retryAfter);
  sendError(res, errorObject('RATE.LIMITED'));
  return false;
}

/** The public route of the request (a preflight's by Access-Control-Request-Method); otherwise 404 or 405 is sent. */
function publicRoute(
  routes: CompiledRoute[],
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
): { spec: RouteSpec; params: Record<string, string> } | undefined {
  const asked = req.headers['access-control-request-method'];
  const method =
    req.method === 'OPTIONS' && typeof asked === 'string'
      ? asked.toUpperCase()
      : req.method === 'HEAD'
        ? 'GET'
        : (req.method ?? 'GET');
  const found = matchRoute(routes, method, pathname);
  if (found.kind === 'not_found') return void sendError(res, errorObject('ROUTE.NOT_FOUND'));
  if (found.kind === 'method_not_allowed') {
    const allowed = found.allowed.map((m) => m.toUpperCase());
    return void sendError(res, errorObject('ROUTE.METHOD_NOT_ALLOWED', undefined, { allowed }), {
      Allow: allowed.join(', '),
    });
  }
  return { spec: found.route.spec, params: found.params };
}

/** The visitor's request headers the service sees (FORWARDED_HEADERS); no content type without a body. */
function publicHeaders(req: IncomingMessage, body: Buffer | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of FORWARDED_HEADERS) {
    const value = req.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  if (!body) delete headers['content-type'];
  return headers;
}
