import { Writable } from 'node:stream';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { createLogger, inSpan, SpanKind, startTracing } from '../src';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  return { lines, logger: createLogger('test', 'info', stream) };
}

describe('logger', () => {
  it('when an unknown database error is logged, then its code and message are kept and the row data it quotes is not', () => {
    const { lines, logger } = capture();
    const err = Object.assign(
      new Error('duplicate key value violates unique constraint "domains_partner_hostname_key"'),
      {
        code: '23505',
        detail: 'Key (partner_id, hostname)=(p1, secret-customer.example.com) already exists.',
        where: 'SQL statement "INSERT ..."',
        parameters: ['owner@secret-customer.example.com'],
        table: 'domains',
      },
    );
    logger.error({ err }, 'unhandled error');
    const logged = JSON.stringify(lines[0]);
    expect(lines[0].err).toMatchObject({ code: '23505', message: expect.stringContaining('unique constraint') });
    expect(logged).not.toContain('secret-customer');
  });

  it('when a line carries a key, a token or an authorization header, then they are redacted', () => {
    const { lines, logger } = capture();
    logger.info({ key: 'pdm_live_abc_secret', headers: { authorization: 'Bearer x' }, nested: { token: 't' } }, 'call');
    expect(JSON.stringify(lines[0])).not.toMatch(/pdm_live_abc_secret|Bearer x|"t"/);
  });
});

describe('logger and tracing', () => {
  it('when a span is active, then a line carries its trace_id and span_id; outside one it carries neither', async () => {
    const { lines, logger } = capture();
    const exporter = new InMemorySpanExporter();
    const tracing = startTracing({ serviceName: 'test', exporter });
    await inSpan(tracing.tracer, { name: 'work', kind: SpanKind.INTERNAL }, async () => logger.info('inside'));
    logger.info('outside');

    const [span] = exporter.getFinishedSpans();
    await tracing.shutdown();
    expect(lines[0]).toMatchObject({ trace_id: span.spanContext().traceId, span_id: span.spanContext().spanId });
    expect(lines[1]).not.toHaveProperty('trace_id');
    expect(lines[1]).not.toHaveProperty('span_id');
  });

  it('when tracing is off, then no exporter runs and no line carries trace ids', async () => {
    const { lines, logger } = capture();
    const tracing = startTracing({ serviceName: 'test', env: {} });
    expect(tracing.tracer).toBeUndefined();
    await inSpan(tracing.tracer, { name: 'work', kind: SpanKind.INTERNAL }, async (span) => {
      expect(span).toBeUndefined();
      logger.info('inside');
    });
    expect(lines[0]).not.toHaveProperty('trace_id');
  });

  it('when OTEL_TRACES_EXPORTER names no known exporter, then starting fails with the setting named', () => {
    expect(() => startTracing({ serviceName: 'test', env: { OTEL_TRACES_EXPORTER: 'zipkin' } })).toThrow(
      /OTEL_TRACES_EXPORTER must be none, otlp or file:<path>, not "zipkin"/,
    );
  });
});
