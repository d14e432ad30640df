import type { RequestHandler, Response } from 'express';
import type { Dispatcher } from 'undici';
import type { InternalTokenMinter } from '@platform/auth';
import { errorObject, type ServiceName } from '@platform/contracts';
import { AppError, isJsonContentType, sendError, type ServiceClient, type ServiceResponse } from '@platform/http';
import type { Logger } from '@platform/observability';
import { apiKeyOf } from './authenticate.middleware';
import { routeOf } from './route.middleware';

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

function relay(res: Response, upstream: ServiceResponse) {
  const contentType = upstream.headers['content-type'];
  const type = Array.isArray(contentType) ? contentType[0] : contentType;
  // Services answer errors in the envelope; anything else (a crashed or foreign upstream) must not leak.
  if (upstream.status >= 400 && !isJsonContentType(type)) {
    return sendError(res, errorObject(upstream.status >= 500 ? 'SERVICE.UNAVAILABLE' : 'SERVER.INTERNAL'));
  }
  const connection = upstream.headers.connection;
  const named = new Set(String(connection ?? '').toLowerCase().split(',').map((s) => s.trim()));
  for (const [name, value] of Object.entries(upstream.headers)) {
    if (value === undefined || NOT_RELAYED.has(name) || named.has(name)) continue;
    res.setHeader(name, value);
  }
  res.status(upstream.status);
  res.setHeader('content-length', upstream.body.length);
  res.end(upstream.body);
}

/**
 * Sends the request on to the service owning the route: same method, path and query, body bytes,
 * request id, and an internal JWT for the key's partner (reused from the minter's cache).
 */
export function forward(upstreams: Upstreams, minter: InternalTokenMinter, logger: Logger): RequestHandler {
  return async (req, res) => {
    const key = apiKeyOf(res);
    const service = routeOf(res).spec.service;
    const token = minter.mint(
      { partnerId: key.partnerId, keyId: key.id, permissions: key.permissions, requiredFields: key.requiredFields },
      service,
    );
    const headers: Record<string, string> = {
      authorization: `Bearer ${token}`,
      'x-request-id': String(res.locals.requestId),
      'x-forwarded-for': req.ip ?? '',
    };
    const body = Buffer.isBuffer(req.body) && req.body.length > 0 ? req.body : undefined;
    if (body) headers['content-type'] = req.headers['content-type'] ?? 'application/json';
    if (req.headers.accept) headers.accept = req.headers.accept;
    try {
      const upstream = await upstreams[service].request({
        method: req.method as Dispatcher.HttpMethod,
        path: req.originalUrl,
        headers,
        body,
      });
      relay(res, upstream);
    } catch (err) {
      if (err instanceof AppError) logger.warn({ service, code: err.code }, 'upstream call failed');
      throw err;
    }
  };
}
