import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import type { Dispatcher } from 'undici';
import { errorObject, type ServiceName } from '@platform/contracts';
import { AppError, isJsonContentType, sendError, type ServiceClient, type ServiceResponse } from '@platform/http';
import type { Logger } from '@platform/observability';
import { traceHeaders } from './request-trace';

export type Upstreams = Record<ServiceName, ServiceClient>;

export interface ForwardDeps {
  upstreams: Upstreams;
  logger: Logger;
  /** Counts a service's 500 answers (a bug to fix, not a reason to refuse other callers). */
  onServerError(service: string): void;
}

/** What differs between the /portal and the public paths' calls; the method, path and request id are the request's. */
export interface Forward {
  service: ServiceName;
  /** The token the service verifies: a partner key's internal token, or the public token. */
  token: string;
  /** The client address (X-Forwarded-For) and the request id, sent on every call. */
  ip: string;
  requestId: string;
  /** The caller's request headers the service may see (content type, Origin, Idempotency-Key ...). */
  headers: Record<string, string>;
  body: Buffer | undefined;
  /** Whose breaker a time-out or an unavailable answer counts against (/portal: the key's partner). */
  partnerId?: string;
  /** The route's own deadline (RouteSpec.upstreamTimeoutMs); default the client's. */
  timeoutMs?: number;
  /** A streamed download (RouteSpec.streamed): its body is piped to the caller as it comes, never held. */
  streamed?: boolean;
}

/**
 * The gateway's one forward, for /portal and the public paths: sends the request to its service
 * with the token, the client address and the request id, and answers the caller with the
 * service's answer. A 500 is counted and logged as a bug to fix; a failed call (time-out,
 * breaker, refused) is logged and answered by the caller's error handler.
 */
export async function forward(deps: ForwardDeps, req: IncomingMessage, res: ServerResponse, call: Forward) {
  const { service, requestId } = call;
  const headers: Record<string, string> = {
    ...call.headers,
    authorization: `Bearer ${call.token}`,
    'x-request-id': requestId,
    'x-forwarded-for': call.ip,
    // The service continues the gateway's server span (when tracing is on).
    ...traceHeaders(req),
  };
  const method = (req.method ?? 'GET') as Dispatcher.HttpMethod;
  try {
    if (call.streamed) return await forwardStream(deps, res, call, { method, path: req.url ?? '/', headers });
    const upstream = await deps.upstreams[service].request({
      method,
      path: req.url ?? '/',
      headers,
      body: call.body,
      partnerId: call.partnerId,
      timeoutMs: call.timeoutMs,
    });
    if (upstream.status === 500) {
      deps.onServerError(service);
      deps.logger.error({ upstream: service, status: 500, requestId }, 'service answered 500: a bug to fix');
    }
    sendUpstreamAnswer(res, upstream);
  } catch (err) {
    if (err instanceof AppError)
      deps.logger.warn({ upstream: service, code: err.code, requestId }, 'upstream call failed');
    throw err;
  }
}

/**
 * A streamed download: a success's body is piped to the caller with backpressure (the service
 * writes no faster than the caller reads; a caller that goes away ends the service's answer too);
 * any other answer is read whole and sent as usual.
 */
async function forwardStream(
  deps: ForwardDeps,
  res: ServerResponse,
  call: Forward,
  request: { method: Dispatcher.HttpMethod; path: string; headers: Record<string, string> },
) {
  const upstream = await deps.upstreams[call.service].stream({
    ...request,
    partnerId: call.partnerId,
    timeoutMs: call.timeoutMs,
  });
  if (upstream.status !== 200) {
    const body = Buffer.concat((await upstream.body.toArray()) as Buffer[]);
    return sendUpstreamAnswer(res, { ...upstream, body });
  }
  copyHeaders(res, upstream.headers);
  res.statusCode = 200;
  try {
    await pipeline(upstream.body, res);
  } catch (err) {
    // The caller left, or the service's answer broke off: either way the answer ends here, cut short.
    deps.logger.warn({ upstream: call.service, requestId: call.requestId, err }, 'streamed answer ended early');
  }
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

/** Copies the service's answer to the caller: status, end-to-end headers and body bytes. */
function sendUpstreamAnswer(res: ServerResponse, upstream: ServiceResponse) {
  const headers = upstream.headers;
  const contentType = headers['content-type'];
  const type = Array.isArray(contentType) ? contentType[0] : contentType;
  // Services answer errors in the envelope; anything else (a crashed or foreign upstream) must not leak.
  if (upstream.status >= 400 && !isJsonContentType(type)) {
    return sendError(res, errorObject(upstream.status >= 500 ? 'SERVICE.UNAVAILABLE' : 'SERVER.INTERNAL'));
  }
  copyHeaders(res, headers);
  res.statusCode = upstream.status;
  res.setHeader('content-length', upstream.body.length);
  res.end(upstream.body);
}

/** The service's end-to-end headers onto the caller's answer. */
function copyHeaders(res: ServerResponse, headers: ServiceResponse['headers']) {
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
}
