import type { RequestListener } from 'node:http';
import { PublicTokenVerifier } from '@platform/auth';
import { isUuid, type RouteSpec } from '@platform/contracts';
import {
  assertOriginAllowed,
  corsHeadersFor,
  notFound,
  publicCallerOf,
  type PublicCaller,
  type PublicGuard,
} from '@platform/http';

/** How long a property's hostname is remembered (it never changes; a deleted property is the handler's 404). */
const HOSTNAME_TTL_MS = 60_000;
const HOSTNAME_CACHE_MAX = 50_000;

/** The property's hostname, or undefined when there is no such property. */
export type PropertyHostnameLookup = (propertyId: string) => Promise<string | undefined>;

/** The prefixes (first path segment) public routes live under, e.g. /widget and /.well-known. */
export const publicPrefixes = (routes: readonly RouteSpec[]) => [
  ...new Set(routes.map((r) => `/${r.path.split('/')[1]}`)),
];

/** Only the gateway's public token reaches a public route; the caller is the page's Origin and the visitor's address. */
export function publicAuthenticator(gatewayPublicKey: string, audience: string) {
  const verifier = new PublicTokenVerifier(gatewayPublicKey, audience);
  return (token: string, req: Parameters<RequestListener>[0]): PublicCaller | undefined =>
    verifier.verify(token) ? publicCallerOf(req) : undefined;
}

/**
 * The public routes' rule, before any handler runs or any body is read: a route with a
 * propertyId answers 404 for no such property, 403 WIDGET.ORIGIN_NOT_ALLOWED for an Origin that
 * is not on its hostname (or a subdomain), and otherwise carries CORS headers for that origin
 * alone, on its answer and on its preflight.
 */
export function propertyOriginGuard(
  lookup: PropertyHostnameLookup | undefined,
  now: () => number = Date.now,
): PublicGuard<PublicCaller> {
  const cache = new Map<string, { hostname: string; until: number }>();
  const hostnameOf = async (propertyId: string) => {
    const hit = cache.get(propertyId);
    if (hit && hit.until > now()) return hit.hostname;
    const hostname = await lookup!(propertyId);
    if (hostname === undefined) return undefined;
    if (cache.size >= HOSTNAME_CACHE_MAX) cache.clear();
    cache.set(propertyId, { hostname, until: now() + HOSTNAME_TTL_MS });
    return hostname;
  };
  return async ({ spec, params, caller, res }) => {
    const propertyId = params.propertyId;
    if (typeof propertyId !== 'string') return;
    // serviceListener refuses to start a service with such routes and no lookup.
    if (!lookup) throw new Error(`${spec.operationId} takes a propertyId but the service has no propertyHostname`);
    const hostname = isUuid(propertyId) ? await hostnameOf(propertyId.toLowerCase()) : undefined;
    if (hostname === undefined) throw notFound('property');
    assertOriginAllowed(caller.origin, hostname);
    const headers = corsHeadersFor(caller.origin!);
    for (const name in headers) res.setHeader(name, headers[name]);
  };
}
