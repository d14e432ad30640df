import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Dispatcher } from 'undici';
import type { InternalTokenMinter } from '@platform/auth';
import { errorObject, type RouteSpec, type ServiceName } from '@platform/contracts';
import {
  AppError,
  isJsonContentType,
  sendError,
  type ServiceClient,
  type ServiceRequest,
  type ServiceResponse,
} from '@platform/http';
import type { KeyRecord } from '../domain/key-authenticator';
import { keyedHeaders } from './idempotency-headers';
import type { PortalDeps } from './portal.handler';

export type Upstreams = Record<ServiceName, ServiceClient>;

/** A checked /portal request, ready to go to the service that owns its route. */
export interface PortalCall {
  key: KeyRecord;
  spec: RouteSpec;
  body: Buffer | undefined;
  idempotencyKey: string | undefined;
  ip: string;
  requestId: string;
}

/**
 * Sends the request to its service (with its Idempotency-Key, which that service keeps: see
 * idempotency-headers.ts) and answers the partner with the service's answer. A 500 is counted
 * and logged as a bug to fix.
 */
export async function forwardToService(deps: PortalDeps, req: IncomingMessage, res: ServerResponse, call: PortalCall) {
  const service = call.spec.service;
  const request = upstreamRequest(deps.minter, req, call);
  try {
    const upstream = await deps.upstreams[service].request(request);
    if (upstream.status === 500) {
      deps.onServerError(service);
      deps.logger.error(
        { upstream: service, status: upstream.status, requestId: call.requestId },
        'service answered 500: a bug to fix',
      );
    }
    sendUpstreamAnswer(res, upstream);
  } catch (err) {
    if (err instanceof AppError)
      deps.logger.warn({ upstream: service, code: err.code, requestId: call.requestId }, 'upstream call failed');
    throw err;
  }
}

/** The partner's request as the service receives it: the gateway's internal token for the key in place of the key. */
function upstreamRequest(
  minter: InternalTokenMinter,
  req: IncomingMessage,
  { key, spec, body, ip, requestId, idempotencyKey }: PortalCall,
): ServiceRequest {
  const token = minter.mint(
    {
      partnerId: key.partnerId,
      keyId: key.id,
      permissions: key.permissions,
      requiredFields: key.requiredFields,
      defaults: key.defaults,
    },
    spec.service,
  );
  const headers: Record<string, string> = {
    authorization: `Bearer ${token}`,
    'x-request-id': requestId,
    'x-forwarded-for': ip,
  };
  if (body) headers['content-type'] = req.headers['content-type'] ?? 'application/json';
  if (req.headers.accept) headers.accept = req.headers.accept;
  if (idempotencyKey !== undefined) Object.assign(headers, keyedHeaders(req, idempotencyKey, body));
  // partnerId: this partner's time-outs and unavailable answers open only its own breaker for the service.
  return {
    method: (req.method ?? 'GET') as Dispatcher.HttpMethod,
    path: req.url ?? '/',
    headers,
    body,
    partnerId: key.partnerId,
  };
}

/** Never copied to the partner: hop-by-hop fields (RFC 9110 7.6.1) and fields the gateway sets itself. */
const NOT_COPIED = new Set([
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

/** Copies the service's answer to the partner: status, end-to-end headers and body bytes. */
export function sendUpstreamAnswer(res: ServerResponse, upstream: ServiceResponse) {
  const headers = upstream.headers;
  const contentType = headers['content-type'];
  const type = Array.isArray(contentType) ? contentType[0] : contentType;
  // Services answer errors in the envelope; anything else (a crashed or foreign upstream) must not leak.
  if (upstream.status >= 400 && !isJsonContentType(type)) {
    return sendError(res, errorObject(upstream.status >= 500 ? 'SERVICE.UNAVAILABLE' : 'SERVER.INTERNAL'));
  }
  const connection = headers.connection;
  // Fields named in Connection are hop-by-hop too; our services never send any, so skip the split.
  const named = connection
    ? new Set(
        String(connection)
          .toLowerCase()
          .split(',')
          .map((s) => s.trim()),
      )
    : undefined;
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined || NOT_COPIED.has(name) || named?.has(name)) continue;
    res.setHeader(name, value);
  }
  res.statusCode = upstream.status;
  res.setHeader('content-length', upstream.body.length);
  res.end(upstream.body);
}
