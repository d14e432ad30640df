import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { exampleEventPayload, type EventMessage, type EventName } from '@platform/contracts';
import { sql } from '@platform/db';
import { activeTraceIds, inSpan, SpanKind, startTracing, type Tracing } from '@platform/observability';
import { bindProbe, waitFor, type BrokerProbe } from '@platform/testing';
import { connectAmqp, startConsumer, type AmqpConnection, type Consumer, type OutboxRelay } from '../src';
import { commitEvents, event, logger, SCHEMA, setupSuite, suiteRelay, type Suite } from './support';

let suite: Suite;
let amqp: AmqpConnection;
let probe: BrokerProbe;
const stops: (() => Promise<void>)[] = [];

beforeAll(async () => {
  suite = await setupSuite('tracing');
  amqp = await connectAmqp(suite.amqpUrl, logger);
  await amqp.ready();
  probe = await bindProbe(suite.amqpUrl, suite.exchange, ['#']);
});

afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});

afterAll(async () => {
  await probe.close();
  await amqp.close();
  await suite.close();
});

function relay(tracing?: Tracing): OutboxRelay {
  const r = suiteRelay(suite, amqp, { tracer: tracing?.tracer });
  stops.push(() => r.stop());
  return r;
}

const storedTraceparent = async (id: string) =>
  (
    await sql<{
      traceparent: string | null;
    }>`SELECT traceparent FROM svc.outbox WHERE id = ${id}`.execute(suite.db)
  ).rows[0].traceparent;

function traced(): { tracing: Tracing; exporter: InMemorySpanExporter } {
  const exporter = new InMemorySpanExporter();
  const tracing = startTracing({ serviceName: 'test-svc', exporter });
  stops.push(() => tracing.shutdown());
  return { tracing, exporter };
}

/** An event whose payload passes the registry's schema (a consumer parks any other). */
const valid = (name: EventName) => ({ ...event(name), payload: exampleEventPayload(name) });

const spanNamed = (exporter: InMemorySpanExporter, name: string) =>
  waitFor(() => exporter.getFinishedSpans().find((s) => s.name === name), { what: `span ${name}` });

describe('tracing through the outbox', () => {
  it('when tracing is off, then the outbox row keeps no traceparent and the message is published without one', async () => {
    relay();
    const [written] = await commitEvents(suite.db, [event('domain.created')]);
    const published = await probe.next((m) => m.id === written.id);

    expect(await storedTraceparent(written.id)).toBeNull();
    expect(published.headers).not.toHaveProperty('traceparent');
    expect(published.headers).toHaveProperty('x-request-id');
  });

  it('when events are written under a span, then the row keeps its traceparent and the relay publishes in a producer span under it, whose traceparent the message carries', async () => {
    const { tracing, exporter } = traced();
    const request = { name: 'request', kind: SpanKind.SERVER };
    const [written] = await inSpan(tracing.tracer, request, () => commitEvents(suite.db, [event('domain.created')]));
    const requestSpan = await spanNamed(exporter, 'request');
    const { traceId, spanId } = requestSpan.spanContext();

    expect(await storedTraceparent(written.id)).toBe(`00-${traceId}-${spanId}-01`);

    relay(tracing);
    const published = await probe.next((m) => m.id === written.id);
    const producer = await spanNamed(exporter, 'domain.created publish');
    expect(producer.kind).toBe(SpanKind.PRODUCER);
    expect(producer.spanContext().traceId).toBe(traceId);
    expect(producer.parentSpanContext?.spanId).toBe(spanId);
    expect(published.headers.traceparent).toBe(`00-${traceId}-${producer.spanContext().spanId}-01`);
  });

  it('when messages are consumed, then each is handled in a consumer span, a child of its producer span, active while its handler runs (a batch handler too)', async () => {
    const { tracing, exporter } = traced();
    const seen = new Map<string, ReturnType<typeof activeTraceIds>>();
    const queue = suite.consumerQueue('traced', 1);
    const consumer: Consumer = startConsumer({
      amqp,
      pool: suite.pool,
      schema: SCHEMA,
      exchange: suite.exchange,
      queue,
      logger,
      retryDelaysMs: [50],
      tracer: tracing.tracer,
      handlers: { 'domain.created': async (m) => void seen.set(m.id, activeTraceIds()) },
      batchHandlers: {
        'domain.deleted': async (ms: EventMessage[]) => {
          for (const m of ms) seen.set(m.id, activeTraceIds());
        },
      },
    });
    stops.push(() => consumer.stop());
    await consumer.ready();
    relay(tracing);

    const [created, deleted] = await inSpan(tracing.tracer, { name: 'request', kind: SpanKind.SERVER }, () =>
      commitEvents(suite.db, [valid('domain.created'), valid('domain.deleted')]),
    );
    await waitFor(() => seen.size === 2, { what: 'both handlers' });

    const spans = exporter.getFinishedSpans();
    const producerOf = (name: string) => spans.find((s) => s.name === `${name} publish`)!;
    const consumerOf = (name: string) =>
      waitFor(() => exporter.getFinishedSpans().find((s) => s.name === `${name} process`));
    for (const [message, name] of [
      [created, 'domain.created'],
      [deleted, 'domain.deleted'],
    ] as const) {
      const span: ReadableSpan = await consumerOf(name);
      expect(span.kind).toBe(SpanKind.CONSUMER);
      expect(span.parentSpanContext?.spanId).toBe(producerOf(name).spanContext().spanId);
      expect(seen.get(message.id)).toEqual({
        trace_id: span.spanContext().traceId,
        span_id: span.spanContext().spanId,
      });
    }
  });
});
