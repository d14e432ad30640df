import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startWebhookReceiver, type WebhookReceiver } from '@platform/launcher';
import type { SpanLine } from '@platform/observability';
import { waitFor } from '@platform/testing';
import { FAST_WEBHOOKS } from './support/shared-platform';
import { startSystem, type OwnSystem, type Partner } from './support/system';

/** The services one domain create passes through, each with at least one span in its trace. */
const SERVICES = ['gateway', 'domains-svc', 'billing-svc', 'merchants-svc', 'webhook-svc'];

const SERVER = 1;
const PRODUCER = 3;
const CONSUMER = 4;

describe('tracing: one domain create is one trace across HTTP and AMQP', () => {
  let sys: OwnSystem;
  let partner: Partner;
  let receiver: WebhookReceiver;
  let dir: string;
  let file: string;

  const spans = async (): Promise<SpanLine[]> =>
    (await readFile(file, 'utf8').catch(() => ''))
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as SpanLine);

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'traces-'));
    file = path.join(dir, 'spans.jsonl');
    receiver = await startWebhookReceiver();
    // Services run as processes: each appends its spans to one file (the test-only exporter).
    sys = await startSystem({ ...FAST_WEBHOOKS, OTEL_TRACES_EXPORTER: `file:${file}` });
    partner = await sys.partner();
    await sys.arrange(partner, 'POST', '/portal/webhooks', { url: `${receiver.url}/traced` });
  });
  afterAll(async () => {
    await sys?.close();
    await receiver?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('when a domain is created through the gateway, then the gateway, domains-svc, its relay, the billing and merchants consumers and the webhook delivery are spans of one trace, one tree rooted at the gateway', async () => {
    const host = `traced-${Date.now().toString(36)}.example.com`;
    const res = await sys.call(partner, 'POST', '/portal/domains', {
      domain: host,
      company_name: 'Traced Co',
      account_email: `o@${host}`,
    });
    expect(res.status).toBe(200);
    const requestId = res.headers.get('x-request-id');

    const root = await waitFor(
      async () =>
        (await spans()).find(
          (s) => s.service === 'gateway' && s.kind === SERVER && s.attributes['request.id'] === requestId,
        ),
      { timeoutMs: 10_000, what: "the gateway's server span of the create" },
    );
    expect(root.name).toBe('POST /portal/domains');
    expect(root.parentSpanId).toBeUndefined();
    // The partner's webhook arrived: the last hop of the trace has run.
    await waitFor(() => receiver.received.some((r) => r.path === '/traced'), {
      timeoutMs: 20_000,
      what: 'a webhook delivery',
    });

    // Spans are written as each ends; a parent may end after its children, so wait for a whole tree.
    let missing = '';
    const trace = await waitFor(
      async () => {
        const mine = (await spans()).filter((s) => s.traceId === root.traceId);
        const ids = new Set(mine.map((s) => s.spanId));
        const orphans = mine.filter((s) => s.spanId !== root.spanId && !(s.parentSpanId && ids.has(s.parentSpanId)));
        const present = new Set(mine.map((s) => s.service));
        const delivered = mine.some((s) => s.service === 'webhook-svc' && s.name === 'webhook deliver');
        missing = JSON.stringify({
          services: SERVICES.filter((name) => !present.has(name)),
          orphans: orphans.map((s) => `${s.service}: ${s.name}`),
          delivered,
        });
        return orphans.length === 0 && SERVICES.every((name) => present.has(name)) && delivered && mine;
      },
      { timeoutMs: 20_000, what: 'one whole trace of the create' },
    ).catch((err: Error) => {
      throw new Error(`${err.message}; still missing: ${missing}`);
    });

    const of = (service: string) => trace.filter((s) => s.service === service);
    // domains-svc served the forward in a server span, a child of the gateway's.
    expect(of('domains-svc')).toContainEqual(
      expect.objectContaining({ kind: SERVER, parentSpanId: root.spanId, name: 'POST /portal/domains' }),
    );
    // Its relay published the events under the request's trace.
    expect(
      of('domains-svc')
        .filter((s) => s.kind === PRODUCER)
        .map((s) => s.name),
    ).toContain('domain.created publish');
    // billing-svc and merchants-svc handled them in consumer spans, children of the producer spans.
    const producers = new Set(trace.filter((s) => s.kind === PRODUCER).map((s) => s.spanId));
    for (const service of ['billing-svc', 'merchants-svc', 'webhook-svc']) {
      const consumers = of(service).filter((s) => s.kind === CONSUMER);
      expect(consumers.length).toBeGreaterThan(0);
      for (const c of consumers) expect(producers).toContain(c.parentSpanId);
    }
    // Every span of the trace shares its id and hangs from the gateway's (the only root).
    expect(trace.filter((s) => s.parentSpanId === undefined)).toEqual([root]);
  });
});
