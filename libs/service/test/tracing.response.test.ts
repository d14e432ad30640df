import { z } from 'zod';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { generateInternalKeyPair } from '@platform/auth';
import { defineRoute, resultOf } from '@platform/contracts';
import { SpanKind, startTracing, type Tracing } from '@platform/observability';
import { startTestService, waitFor, type TestService } from '@platform/testing';
import type { ServiceDefinition } from '../src';

const route = <const Id extends string>(operationId: Id, path: string, service: 'merchants' | 'billing') =>
  defineRoute({
    operationId,
    method: 'get',
    path,
    service,
    permission: 'merchants:read',
    summary: operationId,
    tag: 'Test',
    response: resultOf(z.object({ traceparent: z.string() })),
    errors: [],
  });

const echo = route('echo', '/portal/echo', 'merchants');
const relay = route('relay', '/portal/relay', 'billing');

const target: ServiceDefinition<unknown, Record<string, never>, typeof echo, undefined> = {
  name: 'trace-target',
  schema: 'trace_target',
  audience: 'merchants',
  listen: { portEnv: 'T_PORT', hostEnv: 'T_HOST', defaultPort: 0 },
  migrations: {},
  routes: [echo],
  handlers: () => ({ echo: ({ req }) => ({ result: { traceparent: String(req.headers.traceparent) } }) }),
};

const source: ServiceDefinition<unknown, Record<string, never>, typeof relay, undefined> = {
  name: 'trace-source',
  schema: 'trace_source',
  audience: 'billing',
  listen: { portEnv: 'S_PORT', hostEnv: 'S_HOST', defaultPort: 0 },
  migrations: {},
  routes: [relay],
  handlers: (_ctx, runtime) => ({ relay: ({ caller }) => runtime.call('merchants').call(echo, { as: caller }) }),
};

/** A caller's trace context, as the gateway's forward carries it. */
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const GATEWAY_SPAN = '00f067aa0ba902b7';

describe('tracing between services (in-process, one in-memory exporter)', () => {
  const keys = generateInternalKeyPair();
  const env = { SERVICE_JWT_PRIVATE_KEY: keys.privateKey, SERVICE_JWT_PUBLIC_KEY: keys.publicKey };
  const exporter = new InMemorySpanExporter();
  const tracings: Tracing[] = [];
  let a: TestService<unknown, unknown, undefined>;
  let b: TestService<unknown, unknown, undefined>;

  const tracing = (serviceName: string) => {
    const t = startTracing({ serviceName, exporter });
    tracings.push(t);
    return { tracing: t };
  };

  beforeAll(async () => {
    b = await startTestService(target, env, tracing('trace-target'));
    a = await startTestService(source, { ...env, MERCHANTS_URL: b.url }, tracing('trace-source'));
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    for (const t of tracings) await t.shutdown();
  });

  it("when a request carries a traceparent, then the service's server span continues it, its call to another service is a client span, and the target's server span is that span's child", async () => {
    const res = await fetch(`${a.url}/portal/relay`, {
      headers: { authorization: `Bearer ${a.partner().token}`, traceparent: `00-${TRACE_ID}-${GATEWAY_SPAN}-01` },
    });
    expect(res.status).toBe(200);
    const seen = ((await res.json()) as { result: { traceparent: string } }).result.traceparent;

    const span = (service: string, kind: SpanKind) =>
      waitFor(() =>
        exporter
          .getFinishedSpans()
          .find((s: ReadableSpan) => s.resource.attributes['service.name'] === service && s.kind === kind),
      );
    const server = await span('trace-source', SpanKind.SERVER);
    const client = await span('trace-source', SpanKind.CLIENT);
    const targetServer = await span('trace-target', SpanKind.SERVER);

    expect(server.name).toBe('GET /portal/relay');
    expect(server.spanContext().traceId).toBe(TRACE_ID);
    expect(server.parentSpanContext?.spanId).toBe(GATEWAY_SPAN);
    expect(client).toMatchObject({ name: 'GET /portal/echo' });
    expect(client.parentSpanContext?.spanId).toBe(server.spanContext().spanId);
    expect(seen).toBe(`00-${TRACE_ID}-${client.spanContext().spanId}-01`);
    expect(targetServer.parentSpanContext?.spanId).toBe(client.spanContext().spanId);
    expect(targetServer.attributes).toMatchObject({ 'http.route': '/portal/echo', 'http.response.status_code': 200 });
  });
});
