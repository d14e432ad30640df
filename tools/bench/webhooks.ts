// The webhook section of `npm run bench`: deliveries/s with one and two workers to a local
// receiver answering in 50 ms, and the latency from a domain change's commit to the receiver at a
// steady 200 events/s, with every endpoint healthy and with 10% of them never answering.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { exampleEventPayload, type EventMessage } from '@platform/contracts';
import { freePort, startProcess, startWebhookReceiver, waitUntilReady, type ManagedProcess, type Platform, type ReceivedWebhook } from '@platform/launcher';
import { connectAmqp } from '@platform/messaging';
import { createLogger } from '@platform/observability';

export interface WebhookBenchRow {
  name: string;
  value: string;
  target: string;
  pass?: boolean;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
const until = async (check: () => boolean, timeoutMs: number, what: string) => {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`bench: timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

async function partnerWithKey(platform: Platform, name: string) {
  const p = await platform.admin<{ id: string }>('partner', 'create', '--name', name);
  const k = await platform.admin<{ key: string }>('key', 'create', '--partner', p.id);
  return { id: p.id, key: k.key };
}

async function call(gateway: string, key: string, method: string, url: string, body?: unknown) {
  const res = await fetch(`${gateway}${url}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`bench: ${method} ${url} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as { result: { id: string } };
}

export async function runWebhookBench(platform: Platform, distDir: string, exchange: string, amqpUrl: string): Promise<WebhookBenchRow[]> {
  const rows: WebhookBenchRow[] = [];
  const gateway = platform.urls.gateway;
  const arrivals = new Map<string, ReceivedWebhook[]>();
  const receiver = await startWebhookReceiver({
    keep: false,
    onRequest: (r) => {
      const list = arrivals.get(r.path) ?? [];
      list.push(r);
      arrivals.set(r.path, list);
    },
  });
  const extraWorkers: ManagedProcess[] = [];
  try {
    // Throughput: a backlog of events published at once, each fanned out to 10 endpoints answering in 50 ms.
    const ENDPOINTS = 10;
    const EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 1_500);
    const thr = await partnerWithKey(platform, 'Bench webhooks throughput');
    for (let i = 0; i < ENDPOINTS; i++) {
      receiver.route(`/slow-${i}`, () => ({ status: 200, delayMs: 50 }));
      await call(gateway, thr.key, 'POST', '/portal/webhooks', { url: `${receiver.url}/slow-${i}` });
    }
    const amqp = await connectAmqp(amqpUrl, createLogger('bench', 'warn'));
    const publishBacklog = async () => {
      const ch = await amqp.createConfirmChannel();
      const payload = exampleEventPayload('domain.deleted');
      for (let i = 0; i < EVENTS; i++) {
        const message: EventMessage = { id: randomUUID(), partner_id: thr.id, occurred_at: new Date().toISOString(), source: 'bench', aggregate_id: randomUUID(), version: 1, payload };
        ch.publish(exchange, payload.event, Buffer.from(JSON.stringify(message)), { persistent: true, messageId: message.id, contentType: 'application/json' });
      }
      await ch.waitForConfirms();
      await ch.close();
    };
    const countSlow = () => [...arrivals.entries()].filter(([p]) => p.startsWith('/slow-')).reduce((n, [, list]) => n + list.length, 0);
    for (const workers of [1, 2]) {
      if (workers === 2) {
        const port = await freePort();
        const worker = startProcess({
          name: 'webhook-worker-2',
          script: path.join(distDir, 'apps', 'webhook-svc', 'main.js'),
          env: { ...platform.env, WEBHOOK_ROLE: 'worker', WEBHOOK_PORT: String(port), SERVICE_JWT_PRIVATE_KEY: platform.keys.servicesPrivateKey },
        });
        extraWorkers.push(worker);
        await waitUntilReady(worker, `http://127.0.0.1:${port}/health/ready`);
      }
      const before = countSlow();
      const started = Date.now();
      await publishBacklog();
      await until(() => countSlow() - before >= EVENTS * ENDPOINTS, 180_000, 'the throughput backlog');
      const perSecond = Math.round((EVENTS * ENDPOINTS) / ((Date.now() - started) / 1000));
      console.log(`  webhooks: ${workers} worker(s): ${perSecond} deliveries/s (${EVENTS * ENDPOINTS} deliveries, receiver answering in 50 ms)`);
      rows.push({ name: `deliveries/s, ${workers} worker${workers > 1 ? 's' : ''} (receiver answers in 50 ms)`, value: String(perSecond), target: workers === 1 ? '>= 1000' : '', pass: workers === 1 ? perSecond >= 1000 : undefined });
    }
    await amqp.close();
    for (const w of extraWorkers.splice(0)) await w.stop();

    // Latency: domain creates through the gateway at a steady 200/s, spread over 10 partners with one endpoint each.
    // 200 by default (the target's rate); a machine that cannot create domains that fast shows its refusals.
    const RATE = Number(process.env.BENCH_WEBHOOK_RATE ?? 200);
    const SECONDS = Number(process.env.BENCH_WEBHOOK_SECONDS ?? 15);
    const partners: { id: string; key: string }[] = [];
    for (let i = 0; i < 10; i++) {
      const p = await partnerWithKey(platform, `Bench webhooks latency ${i}`);
      await call(gateway, p.key, 'POST', '/portal/webhooks', { url: `${receiver.url}/latency-${i}`, events: ['domain.created'] });
      partners.push(p);
    }
    /** Creates at RATE per second for `seconds`, spread over the partners; resolves with how many created domains go to healthy endpoints, and the refused creates. */
    const drive = async (seconds: number, timingOut: number) => {
      const runId = randomUUID().slice(0, 8);
      let sent = 0;
      let expected = 0;
      const started = Date.now();
      const failures: string[] = [];
      const inFlight: Promise<void>[] = [];
      // Open loop, paced: every 20 ms, the creates that keep the running total at RATE per second,
      // sent whether or not earlier ones have answered (a slow answer must not thin out the load).
      while (Date.now() - started < seconds * 1000) {
        const due = Math.floor(((Date.now() - started) / 1000) * RATE);
        for (; sent < due; sent++) {
          const p = partners[sent % 10];
          const healthy = sent % 10 >= timingOut;
          const host = `wh${sent}-${runId}.bench.example.com`;
          inFlight.push(
            call(gateway, p.key, 'POST', '/portal/domains', { domain: host, company_name: `WH ${host}`, account_email: `o@${host}`, company_setup: true }).then(
              () => void (expected += healthy ? 1 : 0),
              (err: Error) => void failures.push(err.message),
            ),
          );
        }
        await new Promise((r) => setTimeout(r, 20));
      }
      await Promise.all(inFlight);
      if (failures.length) console.log(`  webhooks: ${failures.length} of ${sent} creates refused (first: ${failures[0].slice(0, 200)})`);
      return { expected, refused: failures.length };
    };
    const latencyRun = async (label: string, timingOut: number) => {
      for (let i = 0; i < 10; i++) receiver.route(`/latency-${i}`, () => (i < timingOut ? { hang: true } : { status: 204 }));
      const healthy = [...Array(10 - timingOut).keys()].map((i) => `/latency-${i + timingOut}`);
      const seen = () => healthy.reduce((n, p) => n + (arrivals.get(p)?.length ?? 0), 0);
      // Warm-up at the same rate (as the HTTP scenarios have), then the measured run.
      let before = seen();
      const warm = await drive(2, timingOut);
      await until(() => seen() - before >= warm.expected, 60_000, `${label} warm-up deliveries`);
      before = seen();
      const beforeByPath = new Map(healthy.map((p) => [p, arrivals.get(p)?.length ?? 0]));
      const { expected, refused } = await drive(SECONDS, timingOut);
      await until(() => seen() - before >= expected, 60_000, `${label} deliveries`);
      const latencies = healthy
        .flatMap((p) => (arrivals.get(p) ?? []).slice(beforeByPath.get(p)))
        .map((r) => r.receivedAt - Date.parse((JSON.parse(r.body) as { entity: { data: { created_at: string } } }).entity.data.created_at))
        .sort((a, b) => a - b);
      const [p50, p99] = [percentile(latencies, 50), percentile(latencies, 99)];
      const limit = timingOut ? 400 : 250;
      console.log(`  webhooks: ${label}: commit -> receiver p50 ${p50} ms, p99 ${p99} ms over ${latencies.length} deliveries`);
      rows.push({
        name: `commit -> receiver at ${RATE} events/s, ${label} (p50 / p99 ms)`,
        value: `${p50} / ${p99}${refused ? ` (${refused} creates refused)` : ''}`,
        target: `p99 < ${limit}`,
        pass: p99 < limit && refused === 0,
      });
    };
    await latencyRun('all endpoints healthy', 0);
    await latencyRun('10% of endpoints never answer', 1);
    return rows;
  } finally {
    for (const w of extraWorkers) await w.stop();
    await receiver.close();
  }
}
