import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';

/** What a service does with OTEL_TRACES_EXPORTER=otlp: one span, then the stop that flushes it. */
const PROCESS = `
import { inSpan, SpanKind, startTracing } from '../src';
const tracing = startTracing({ serviceName: 'otlp-test-svc' });
if (!tracing.tracer) throw new Error('tracing is off');
inSpan(tracing.tracer, { name: 'exported work', kind: SpanKind.INTERNAL }, async () => undefined)
  .then(() => tracing.shutdown());
`;

describe('tracing over OTLP', () => {
  let server: Server;
  let base: string;
  const received: { path: string; body: string }[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ path: req.url ?? '', body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  // The exporter imports node:http dynamically, which Jest's module system cannot: bundled as the apps are, run as a process.
  it('when OTEL_TRACES_EXPORTER=otlp, then a bundled process posts its spans to OTEL_EXPORTER_OTLP_ENDPOINT/v1/traces with its service name', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'otlp-'));
    try {
      const outfile = path.join(dir, 'main.js');
      await build({
        stdin: { contents: PROCESS, resolveDir: __dirname, loader: 'ts' },
        bundle: true,
        platform: 'node',
        format: 'cjs',
        outfile,
        logLevel: 'silent',
      });
      await promisify(execFile)(process.execPath, [outfile], {
        env: { PATH: process.env.PATH, OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_ENDPOINT: `${base}/` },
        timeout: 20_000,
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }

    expect(received).toHaveLength(1);
    expect(received[0].path).toBe('/v1/traces');
    expect(received[0].body).toContain('otlp-test-svc');
    expect(received[0].body).toContain('exported work');
  });
});
