import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  contextWith,
  injectTrace,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  startSpan,
  type Context,
  type Tracer,
} from '@platform/observability';
import { routedOperation } from './portal-route';

/** Each traced request's server span, as the context its forwards carry. */
const traces = new WeakMap<IncomingMessage, Context>();

/**
 * Starts the request's server span: the root of its trace (a partner's own traceparent is not
 * continued: the trace starts at the platform's edge). Kept beside the request rather than in
 * AsyncLocalStorage, which the gateway's hot paths avoid; ended once the answer is sent (or
 * the caller left), named after the route it was routed to (`POST /portal/domains`).
 */
export function traceRequest(
  tracer: Tracer,
  routePaths: ReadonlyMap<string, string>,
  req: IncomingMessage,
  res: ServerResponse,
  requestId: string,
): void {
  const method = req.method ?? 'GET';
  const span = startSpan(tracer, {
    name: method,
    kind: SpanKind.SERVER,
    parent: ROOT_CONTEXT,
    attributes: { 'http.request.method': method, 'url.path': (req.url ?? '/').split('?')[0], 'request.id': requestId },
  });
  traces.set(req, contextWith(span, ROOT_CONTEXT));
  res.once('close', () => {
    const operation = routedOperation.get(res);
    const route = operation && routePaths.get(operation);
    if (operation && route) {
      span.updateName(`${method} ${route}`);
      span.setAttributes({ 'http.route': route, 'operation.id': operation });
    }
    span.setAttribute('http.response.status_code', res.statusCode);
    if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  });
}

/** traceparent (and tracestate) of the request's server span for a forward; none when it is not traced. */
export function traceHeaders(req: IncomingMessage): Record<string, string> {
  const ctx = traces.get(req);
  if (!ctx) return {};
  const headers: Record<string, string> = {};
  injectTrace(headers, ctx);
  return headers;
}
