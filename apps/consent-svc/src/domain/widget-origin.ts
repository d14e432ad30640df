import type { IncomingMessage } from 'node:http';
import { AppError } from '@platform/http';
import type { PropertyRow } from '../db/properties.repository';

/** The host of an Origin header (port dropped, lowercase, no trailing dot), or undefined when there is none or it is not a URL. */
function originHost(origin: string | undefined): string | undefined {
  if (!origin || origin === 'null') return undefined;
  try {
    const url = new URL(origin);
    return url.protocol === 'http:' || url.protocol === 'https:'
      ? url.hostname.toLowerCase().replace(/\.$/, '')
      : undefined;
  } catch {
    return undefined;
  }
}

const isUnder = (host: string, name: string) => host === name || host.endsWith(`.${name}`);

/**
 * The request's Origin when its host is the property's hostname, one of its subdomains, or a
 * host under it (the port is not compared); otherwise 403 WIDGET.ORIGIN_NOT_ALLOWED.
 */
export function allowedOrigin(req: IncomingMessage, property: Pick<PropertyRow, 'hostname' | 'subdomains'>): string {
  const origin = req.headers.origin;
  const host = originHost(origin);
  if (host && [property.hostname, ...property.subdomains].some((name) => isUnder(host, name))) return origin!;
  throw new AppError('WIDGET.ORIGIN_NOT_ALLOWED');
}

/** CORS headers for an allowed origin only. */
export const corsHeaders = (origin: string) => ({ 'Access-Control-Allow-Origin': origin, Vary: 'Origin' });
