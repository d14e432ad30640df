import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RouteSpec } from '@platform/contracts';
import { AppError } from './errors';

/**
 * Who calls a public route (the widget in a visitor's browser): no partner, no permission; the
 * page's Origin and the visitor's address as the gateway forwarded them (believed because only
 * the gateway's public token reaches a public route). The address is for rate limits and GeoIP,
 * never to be stored.
 */
export interface PublicCaller {
  kind: 'public';
  origin: string | undefined;
  clientIp: string | undefined;
}

/** The caller of a public request, from the headers the gateway set. */
export function publicCallerOf(req: IncomingMessage): PublicCaller {
  const origin = req.headers.origin;
  const forwarded = req.headers['x-forwarded-for'];
  const first = typeof forwarded === 'string' ? forwarded.split(',')[0].trim() : undefined;
  return { kind: 'public', origin: typeof origin === 'string' ? origin : undefined, clientIp: first || undefined };
}

const normalHost = (host: string) => host.toLowerCase().replace(/\.$/, '');

/** The host of an http(s) URL (port dropped), or undefined for anything else. */
function httpHost(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return undefined;
    return normalHost(parsed.hostname);
  } catch {
    return undefined;
  }
}

const isOnHost = (host: string | undefined, hostname: string) => {
  if (!host) return false;
  const property = normalHost(hostname);
  return host === property || host.endsWith(`.${property}`);
};

/** Whether a string is an origin as browsers serialise it (no path, user info, default port or capitals). */
function isSerialisedOrigin(origin: string): boolean {
  try {
    return new URL(origin).origin === origin;
  } catch {
    return false;
  }
}

/**
 * The host of an http(s) Origin header (port dropped), or undefined for none, "null" or anything
 * no browser sends (e.g. `https://host\@evil.net`): only a serialised origin counts.
 */
export function originHost(origin: string | undefined): string | undefined {
  if (!origin || !isSerialisedOrigin(origin)) return undefined;
  return httpHost(origin);
}

/** Whether an Origin is on the hostname or one of its subdomains; the port is not compared. */
export function isOriginOnHost(origin: string | undefined, hostname: string): boolean {
  return isOnHost(originHost(origin), hostname);
}

/** Whether a page's URL is http(s) on the hostname or one of its subdomains; the port is not compared. */
export function isUrlOnHost(url: string, hostname: string): boolean {
  return isOnHost(httpHost(url), hostname);
}

/** 403 WIDGET.ORIGIN_NOT_ALLOWED unless the Origin is on the hostname or a subdomain of it. */
export function assertOriginAllowed(origin: string | undefined, hostname: string): void {
  if (!isOriginOnHost(origin, hostname)) throw new AppError('WIDGET.ORIGIN_NOT_ALLOWED');
}

/** CORS headers for one allowed origin (never `*`: each answer names the origin it was checked for). */
export const corsHeadersFor = (origin: string): Record<string, string> => ({
  'Access-Control-Allow-Origin': origin,
  Vary: 'Origin',
});

/** Runs before a public route's handler: may refuse (throw) or set headers (CORS) on the answer. */
export type PublicGuard<C> = (input: {
  spec: RouteSpec;
  params: Record<string, unknown>;
  caller: C;
  req: IncomingMessage;
  res: ServerResponse;
}) => void | Promise<void>;

/** What a preflight may ask for: the widget sends JSON and revalidates with If-None-Match. */
const ALLOWED_REQUEST_HEADERS = 'Content-Type, If-None-Match';
/** How long a browser may keep a preflight's answer. */
const PREFLIGHT_MAX_AGE_SECONDS = '600';

/** The method a CORS preflight (OPTIONS) asks about, or undefined when the request is not one. */
export function preflightMethod(req: IncomingMessage): string | undefined {
  if (req.method !== 'OPTIONS') return undefined;
  const asked = req.headers['access-control-request-method'];
  return typeof asked === 'string' && asked.length > 0 ? asked.toUpperCase() : undefined;
}

/** Answers a preflight the guard accepted (its CORS headers are already set): 204 with the method asked. */
export function answerPreflight(res: ServerResponse, method: string) {
  res.statusCode = 204;
  res.setHeader('Access-Control-Allow-Methods', method);
  res.setHeader('Access-Control-Allow-Headers', ALLOWED_REQUEST_HEADERS);
  res.setHeader('Access-Control-Max-Age', PREFLIGHT_MAX_AGE_SECONDS);
  res.end();
}
