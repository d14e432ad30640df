import { AsyncLocalStorage } from 'node:async_hooks';
import pino, { type Logger } from 'pino';
import { activeTraceIds } from './tracing';

export type { Logger };

export interface RequestContext {
  requestId: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

/** Runs fn with a request context, so every log line inside carries the request id. */
export function runWithContext<T>(ctx: RequestContext, fn: () => T): T {
  return storage.run(ctx, fn);
}

export function currentContext(): RequestContext | undefined {
  return storage.getStore();
}

export const REQUEST_ID_HEADER = 'x-request-id';

/** Paths whose values must never reach a log line. */
export const REDACT_PATHS = [
  'authorization',
  '*.authorization',
  'req.headers.authorization',
  'headers.authorization',
  'key',
  '*.key',
  'secret',
  '*.secret',
  'password',
  '*.password',
  'token',
  '*.token',
];

/**
 * Fields of a PostgreSQL error that quote stored or submitted data (the failing row, key values,
 * query parameters): an unknown error is logged with its code, message and stack, never those.
 */
export const ROW_DATA_ERROR_FIELDS = [
  'detail',
  'where',
  'internalQuery',
  'query',
  'parameters',
  'hint',
  'table',
  'column',
  'dataType',
];

function errorWithoutRowData(err: Error): Record<string, unknown> {
  const serialized = pino.stdSerializers.err(err) as unknown as Record<string, unknown>;
  for (const field of ROW_DATA_ERROR_FIELDS) delete serialized[field];
  return serialized;
}

/** Pino writes a line to `destination` (stdout by default): JSON, secrets redacted, row data of errors dropped. */
export function createLogger(service: string, level = 'info', destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service },
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      serializers: { err: errorWithoutRowData },
      mixin() {
        // trace_id and span_id while a span is active (tracing on), so a line can be found from its trace.
        const ctx = storage.getStore();
        return ctx ? { requestId: ctx.requestId, ...activeTraceIds() } : activeTraceIds();
      },
    },
    destination,
  );
}

export {
  activeTraceIds,
  activeTraceparent,
  contextWith,
  inContext,
  extractTrace,
  injectTrace,
  inSpan,
  linkTo,
  NO_TRACING,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  startSpan,
  startTracing,
  withSpan,
  type Context,
  type Link,
  type Span,
  type SpanSpec,
  type Tracer,
  type Tracing,
  type TracingOptions,
} from './tracing';
export type { SpanLine } from './file-span-exporter';
