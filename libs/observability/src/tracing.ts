import {
  context,
  ProxyTracerProvider,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Link,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  SimpleSpanProcessor,
  type SpanExporter,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import { FileSpanExporter } from './file-span-exporter';

export { ROOT_CONTEXT, SpanKind, SpanStatusCode, type Context, type Link, type Span, type Tracer };

/** A process's (or, in a test, one in-process service's) tracing: its tracer, undefined when tracing is off. */
export interface Tracing {
  /** Undefined when off: callers skip every span, so tracing costs nothing then. */
  tracer: Tracer | undefined;
  /** Exports what is buffered and stops. */
  shutdown(): Promise<void>;
}

export interface TracingOptions {
  /** The resource's service.name (e.g. domains-svc). */
  serviceName: string;
  /** A test's exporter (e.g. InMemorySpanExporter): each span is handed over as it ends. Wins over the environment. */
  exporter?: SpanExporter;
  /** OTEL_TRACES_EXPORTER: unset or none (off), otlp (OTLP over HTTP to OTEL_EXPORTER_OTLP_ENDPOINT), file:<path> (tests: JSON lines). */
  env?: NodeJS.ProcessEnv;
}

export const NO_TRACING: Tracing = { tracer: undefined, shutdown: async () => undefined };

/** Only the API's no-op tracer: what a span helper starts when handed no tracer. */
const noopTracer = new ProxyTracerProvider().getTracer('noop');

/** W3C trace context (traceparent, tracestate): an instance, not the global, so nothing else in the process changes. */
const propagator = new W3CTraceContextPropagator();

let contextManagerSet = false;

/** The process's one context manager (AsyncLocalStorage): set the first time tracing starts, never when it is off. */
function ensureContextManager() {
  if (contextManagerSet) return;
  contextManagerSet = context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
}

/** The exporter OTEL_TRACES_EXPORTER names, with its processor; undefined when tracing is off. */
function processorFromEnv(env: NodeJS.ProcessEnv): SpanProcessor | undefined {
  const setting = (env.OTEL_TRACES_EXPORTER ?? 'none').trim();
  if (setting === '' || setting === 'none') return undefined;
  // The endpoint from env as the spec reads it; the exporter reads the rest (headers, time-out) from process.env.
  if (setting === 'otlp') return new BatchSpanProcessor(new OTLPTraceExporter({ url: otlpTracesUrl(env) }));
  if (setting.startsWith('file:') && setting.length > 5)
    return new SimpleSpanProcessor(new FileSpanExporter(setting.slice(5)));
  throw new Error(`OTEL_TRACES_EXPORTER must be none, otlp or file:<path>, not "${setting}"`);
}

/** OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as it is, or OTEL_EXPORTER_OTLP_ENDPOINT + /v1/traces; undefined: the default (localhost:4318). */
function otlpTracesUrl(env: NodeJS.ProcessEnv): string | undefined {
  if (env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT;
  return base ? `${base.replace(/\/+$/, '')}/v1/traces` : undefined;
}

/**
 * Starts tracing for a service: off unless an exporter is given or OTEL_TRACES_EXPORTER names
 * one. Its provider is its own (not the global one), so services booted in one process each
 * keep their service.name; what they share is the context manager.
 */
export function startTracing(options: TracingOptions): Tracing {
  const processor = options.exporter
    ? new SimpleSpanProcessor(options.exporter)
    : processorFromEnv(options.env ?? process.env);
  if (!processor) return NO_TRACING;
  ensureContextManager();
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: options.serviceName }),
    spanProcessors: [processor],
  });
  return { tracer: provider.getTracer('@platform'), shutdown: () => provider.shutdown() };
}

/** Writes the context's (default: the active one's) traceparent and tracestate into headers (HTTP or AMQP); nothing without a span. */
export function injectTrace(headers: Record<string, unknown>, ctx: Context = context.active()): void {
  propagator.inject(ctx, headers, {
    set: (carrier, key, value) => void ((carrier as Record<string, unknown>)[key] = value),
  });
}

/** The context headers carry (traceparent, tracestate), or the root context without them. */
export function extractTrace(headers: Record<string, unknown> | undefined): Context {
  if (!headers || typeof headers.traceparent !== 'string') return ROOT_CONTEXT;
  return propagator.extract(ROOT_CONTEXT, headers, {
    get: (carrier, key) => {
      const value = (carrier as Record<string, unknown>)[key];
      return typeof value === 'string' ? value : undefined;
    },
    keys: (carrier) => Object.keys(carrier as object),
  });
}

/** The traceparent of the context's span (default the active one; e.g. to store with an outbox row), or null when none is recording. */
export function activeTraceparent(ctx: Context = context.active()): string | null {
  if (!trace.getSpan(ctx)?.isRecording()) return null;
  const headers: Record<string, unknown> = {};
  injectTrace(headers, ctx);
  return typeof headers.traceparent === 'string' ? headers.traceparent : null;
}

/** Runs fn with ctx active (e.g. a message's consumer span while its handler runs). */
export const inContext = <T>(ctx: Context, fn: () => T): T => context.with(ctx, fn);

/** The context with span active under parent (default the active context). */
export const contextWith = (span: Span, parent: Context = context.active()): Context => trace.setSpan(parent, span);

/** The trace and span id of the active span, for a log line; empty when none. */
export function activeTraceIds(): { trace_id?: string; span_id?: string } {
  const span = trace.getActiveSpan();
  if (!span?.isRecording()) return {};
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}

export interface SpanSpec {
  name: string;
  kind: SpanKind;
  attributes?: Attributes;
  links?: Link[];
  /** The parent; default the active context. */
  parent?: Context;
}

/**
 * Runs fn in a span (active while it runs), ended when fn settles; a throw marks it an error.
 * Without a tracer fn runs as is, given no span.
 */
export async function inSpan<T>(
  tracer: Tracer | undefined,
  spec: SpanSpec,
  fn: (span: Span | undefined) => Promise<T>,
): Promise<T> {
  if (!tracer) return fn(undefined);
  const parent = spec.parent ?? context.active();
  const span = tracer.startSpan(spec.name, { kind: spec.kind, attributes: spec.attributes, links: spec.links }, parent);
  try {
    return await context.with(trace.setSpan(parent, span), () => fn(span));
  } catch (err) {
    span.recordException(err as Error);
    span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error)?.message });
    throw err;
  } finally {
    span.end();
  }
}

/** Starts a span whose end the caller owns (e.g. on an HTTP answer's finish); a no-op span without a tracer. */
export function startSpan(tracer: Tracer | undefined, spec: SpanSpec): Span {
  return (tracer ?? noopTracer).startSpan(
    spec.name,
    { kind: spec.kind, attributes: spec.attributes, links: spec.links },
    spec.parent ?? context.active(),
  );
}

/** Runs fn with span active (under parent). */
export const withSpan = <T>(parent: Context, span: Span, fn: () => T): T =>
  context.with(trace.setSpan(parent, span), fn);

/** A link to the context's span, if it has one. */
export function linkTo(ctx: Context): Link | undefined {
  const sc = trace.getSpanContext(ctx);
  return sc ? { context: sc } : undefined;
}
