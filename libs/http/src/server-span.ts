import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RouteSpec } from '@platform/contracts';
import { extractTrace, SpanKind, SpanStatusCode, startSpan, withSpan, type Tracer } from '@platform/observability';

/**
 * Runs a request's handling in a server span that continues the caller's traceparent (the
 * gateway's or another service's), named after the route it matched once answered
 * (`POST /portal/domains`); a 5xx answer marks it an error.
 */
export function serverSpan(
  tracer: Tracer,
  req: IncomingMessage,
  res: ServerResponse,
  request: { path: string; requestId: string; route: () => RouteSpec | undefined },
  run: () => void,
): void {
  const method = req.method ?? 'GET';
  const parent = extractTrace(req.headers);
  const span = startSpan(tracer, {
    name: method,
    kind: SpanKind.SERVER,
    parent,
    attributes: { 'http.request.method': method, 'url.path': request.path, 'request.id': request.requestId },
  });
  // close follows finish, and also comes alone when the caller went away first.
  res.once('close', () => {
    const spec = request.route();
    if (spec) {
      span.updateName(`${method} ${spec.path}`);
      span.setAttributes({ 'http.route': spec.path, 'operation.id': spec.operationId });
    }
    span.setAttribute('http.response.status_code', res.statusCode);
    if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  });
  withSpan(parent, span, run);
}
