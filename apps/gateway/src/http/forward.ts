import type { ServerResponse } from 'node:http';
import { errorObject, type ServiceName } from '@platform/contracts';
import { isJsonContentType, type ServiceClient, type ServiceResponse } from '@platform/http';
import { sendError } from '@platform/http';

export type Upstreams = Record<ServiceName, ServiceClient>;

/** Never relayed: hop-by-hop fields (RFC 9110 7.6.1) and fields the gateway sets itself. */
const NOT_RELAYED = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'content-length',
  'date',
  'x-request-id',
]);

/** Copies the service's answer: status, end-to-end headers and body bytes. */
export function relay(res: ServerResponse, upstream: ServiceResponse) {
  const headers = upstream.headers;
  const contentType = headers['content-type'];
  const type = Array.isArray(contentType) ? contentType[0] : contentType;
  // Services answer errors in the envelope; anything else (a crashed or foreign upstream) must not leak.
  if (upstream.status >= 400 && !isJsonContentType(type)) {
    return sendError(res, errorObject(upstream.status >= 500 ? 'SERVICE.UNAVAILABLE' : 'SERVER.INTERNAL'));
  }
  const connection = headers.connection;
  // Fields named in Connection are hop-by-hop too; our services never send any, so skip the split.
  const named = connection ? new Set(String(connection).toLowerCase().split(',').map((s) => s.trim())) : undefined;
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined || NOT_RELAYED.has(name) || named?.has(name)) continue;
    res.setHeader(name, value);
  }
  res.statusCode = upstream.status;
  res.setHeader('content-length', upstream.body.length);
  res.end(upstream.body);
}
