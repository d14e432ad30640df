// The webhook section of `npm run bench`: deliveries/s with one and two workers to a local
// receiver answering in 50 ms, and the latency from a domain change to the receiver at a steady
// 200 events/s, with every endpoint healthy and with 10% of them never answering.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { Client } from 'pg';
import { request, type Dispatcher } from 'undici';
import { exampleEventPayload, type EventMessage } from '@platform/contracts';
import {
  freePort,
  startProcess,
  startWebhookReceiver,
  waitUntilReady,
  type ManagedProcess,
  type Platform,
  type ReceivedWebhook,
} from '@platform/launcher';
import { connectAmqp } from '@platform/messaging';
import { createLogger } from '@platform/observability';

export interface WebhookBenchRow {
  name: string;
  value: string;
  target: string;
  pass?: boolean;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
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

// undici's request rather than fetch: the load generator shares the two cores with the platform,
// and fetch costs several times more CPU per call.
async function call(gateway: string, key: string, method: Dispatcher.HttpMethod, url: string, body?: unknown) {
  const res = await request(`${gateway}${url}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.body.text();
  if (res.statusCode < 200 || res.statusCode >= 300)
    throw new Error(`bench: ${method} ${url} answered ${res.statusCode}: ${text}`);
  return JSON.parse(text) as { result: { id: string } };
}

/**
 * When each update's property.updated was written, by its colour: the outbox row is inserted by
 * the last statement before COMMIT (clock_timestamp()), so this is the change's commit to within
 * a statement, read from the same clock the receiver stamps arrivals with.
 */
async function committedAt(databaseUrl: string): Promise<Map<string, number>> {
  const c = new Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    const { rows } = await c.query<{ colour: string; at: Date }>(
      `SELECT message->'payload'->'params'->>'primary_color' AS colour, created_at AS at
         FROM domains.outbox WHERE routing_key = 'property.updated' AND message->'payload'->'params' ? 'primary_color'`,
    );
    return new Map(rows.map((r) => [r.colour, r.at.getTime()]));
  } finally {
    await c.end();
  }
}

export async function runWebhookBench(
  platform: Platform,
  distDir: string,
  exchange: string,
  amqpUrl: string,
  databaseUrl: string,
): Promise<WebhookBenchRow[]> {
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
        const message: EventMessage = {
          id: randomUUID(),
          partner_id: thr.id,
          occurred_at: new Date().toISOString(),
          source: 'bench',
          aggregate_id: randomUUID(),
          version: 1,
          payload,
        };
        ch.publish(exchange, payload.event, Buffer.from(JSON.stringify(message)), {
          persistent: true,
          messageId: message.id,
          contentType: 'application/json',
        });
      }
      await ch.waitForConfirms();
      await ch.close();
    };
    const countSlow = () =>
      [...arrivals.entries()].filter(([p]) => p.startsWith('/slow-')).reduce((n, [, list]) => n + list.length, 0);
    for (const workers of [1, 2]) {
      if (workers === 2) {
        const [port, adminPort] = [await freePort(), await freePort()];
        const worker = startProcess({
          name: 'webhook-worker-2',
          script: path.join(distDir, 'apps', 'webhook-svc', 'main.js'),
          env: {
            ...platform.env,
            WEBHOOK_ROLE: 'worker',
            WEBHOOKS_PORT: String(port),
            WEBHOOKS_ADMIN_PORT: String(adminPort),
            SERVICE_JWT_PRIVATE_KEY: platform.keys.servicesPrivateKey,
          },
        });
        extraWorkers.push(worker);
        await waitUntilReady(worker, `http://127.0.0.1:${adminPort}/health/ready`);
      }
      const before = countSlow();
      const started = Date.now();
      await publishBacklog();
      await until(() => countSlow() - before >= EVENTS * ENDPOINTS, 180_000, 'the throughput backlog');
      const perSecond = Math.round((EVENTS * ENDPOINTS) / ((Date.now() - started) / 1000));
      console.log(
        `  webhooks: ${workers} worker(s): ${perSecond} deliveries/s (${EVENTS * ENDPOINTS} deliveries, receiver answering in 50 ms)`,
      );
      rows.push({
        name: `deliveries/s, ${workers} worker${workers > 1 ? 's' : ''} (receiver answers in 50 ms)`,
        value: String(perSecond),
        target: workers === 1 ? '>= 1000' : '',
        pass: workers === 1 ? perSecond >= 1000 : undefined,
      });
    }
    await amqp.close();
    for (const w of extraWorkers.splice(0)) await w.stop();

    // Latency: domain changes through the gateway at a steady rate, spread over 10 partners with one
    // endpoint each. The target's changes are widget-setting updates (PUT /portal/domains/{id}, one
    // property.updated each); creates, which also open a subscription in billing-svc and a
    // projection in merchants-svc, are measured beside them at their own rate.
    const RATE = Number(process.env.BENCH_WEBHOOK_RATE ?? 200);
    const CREATE_RATE = Number(process.env.BENCH_WEBHOOK_CREATE_RATE ?? 100);
    const SECONDS = Number(process.env.BENCH_WEBHOOK_SECONDS ?? 15);
    const DOMAINS_PER_PARTNER = 20;
    const partners: { id: string; key: string; domains: string[] }[] = [];
    for (let i = 0; i < 10; i++) {
      const p = await partnerWithKey(platform, `Bench webhooks latency ${i}`);
      await call(gateway, p.key, 'POST', '/portal/webhooks', {
        url: `${receiver.url}/latency-${i}`,
        events: ['domain.created', 'property.updated'],
      });
      const domains = [];
      for (let d = 0; d < DOMAINS_PER_PARTNER; d++) {
        const host = `wset${d}-${i}-${randomUUID().slice(0, 8)}.bench.example.com`;
        domains.push(
          (
            await call(gateway, p.key, 'POST', '/portal/domains', {
              domain: host,
              company_name: `WH ${host}`,
              account_email: `o@${host}`,
              company_setup: true,
              action: 'CREATE_SILENT',
            })
          ).result.id,
        );
      }
      partners.push({ ...p, domains });
    }
    // Every update sets a colour never used before, so each delivery names the request it came from.
    let colours = 0;
    const sentAt = new Map<string, number>();
    const change = (kind: 'update' | 'create', n: number, runId: string) => {
      const p = partners[n % 10];
      if (kind === 'create') {
        const host = `wh${n}-${runId}.bench.example.com`;
        return call(gateway, p.key, 'POST', '/portal/domains', {
          domain: host,
          company_name: `WH ${host}`,
          account_email: `o@${host}`,
          company_setup: true,
        });
      }
      const colour = `#${(++colours).toString(16).padStart(6, '0')}`;
      sentAt.set(colour, Date.now());
      return call(gateway, p.key, 'PUT', `/portal/domains/${p.domains[Math.floor(n / 10) % DOMAINS_PER_PARTNER]}`, {
        primary_color: colour,
      });
    };
    /** Changes at `rate` per second for `seconds`; resolves with how many reach healthy endpoints, and the refused calls. */
    const drive = async (kind: 'update' | 'create', rate: number, seconds: number, timingOut: number) => {
      const runId = randomUUID().slice(0, 8);
      let sent = 0;
      let expected = 0;
      const started = Date.now();
      const failures: string[] = [];
      const inFlight: Promise<void>[] = [];
      // Open loop, paced: every 20 ms, the calls that keep the running total at `rate` per second,
      // sent whether or not earlier ones have answered (a slow answer must not thin out the load).
      while (Date.now() - started < seconds * 1000) {
        const due = Math.floor(((Date.now() - started) / 1000) * rate);
        for (; sent < due; sent++) {
          const healthy = sent % 10 >= timingOut;
          inFlight.push(
            change(kind, sent, runId).then(
              () => void (expected += healthy ? 1 : 0),
              (err: Error) => void failures.push(err.message),
            ),
          );
        }
        await new Promise((r) => setTimeout(r, 20));
      }
      await Promise.all(inFlight);
      if (failures.length)
        console.log(`  webhooks: ${failures.length} of ${sent} ${kind}s refused (first: ${failures[0].slice(0, 200)})`);
      return { expected, refused: failures.length };
    };
    /**
     * When the change behind a delivery was made: the create's created_at (set in its transaction),
     * the update's commit, or when the update was sent (adds the call's own time through the gateway).
     */
    const changedAt = (r: ReceivedWebhook, commits: Map<string, number>, from: 'commit' | 'call') => {
      const body = JSON.parse(r.body) as {
        event: string;
        params: { primary_color?: string };
        entity: { data: { created_at: string } };
      };
      if (body.event === 'domain.created') return Date.parse(body.entity.data.created_at);
      const at = (from === 'commit' ? commits : sentAt).get(body.params.primary_color ?? '');
      if (at === undefined) throw new Error(`bench: no ${from} time for colour ${body.params.primary_color}`);
      return at;
    };
    const latencyRun = async (
      kind: 'update' | 'create',
      rate: number,
      label: string,
      timingOut: number,
      limit?: number,
    ) => {
      for (let i = 0; i < 10; i++)
        receiver.route(`/latency-${i}`, () => (i < timingOut ? { hang: true } : { status: 204 }));
      const healthy = [...Array(10 - timingOut).keys()].map((i) => `/latency-${i + timingOut}`);
      const seen = () => healthy.reduce((n, p) => n + (arrivals.get(p)?.length ?? 0), 0);
      // Warm-up at the same rate (as the HTTP scenarios have), then the measured run.
      let before = seen();
      const warm = await drive(kind, rate, 2, timingOut);
      await until(() => seen() - before >= warm.expected, 60_000, `${label} warm-up deliveries`);
      before = seen();
      const beforeByPath = new Map(healthy.map((p) => [p, arrivals.get(p)?.length ?? 0]));
      const { expected, refused } = await drive(kind, rate, SECONDS, timingOut);
      await until(() => seen() - before >= expected, 60_000, `${label} deliveries`);
      const received = healthy.flatMap((p) => (arrivals.get(p) ?? []).slice(beforeByPath.get(p)));
      const commits = kind === 'update' ? await committedAt(databaseUrl) : new Map<string, number>();
      const latencies = (from: 'commit' | 'call') =>
        received.map((r) => r.receivedAt - changedAt(r, commits, from)).sort((a, b) => a - b);
      const fromCommit = latencies('commit');
      const [p50, p99] = [percentile(fromCommit, 50), percentile(fromCommit, 99)];
      console.log(
        `  webhooks: ${label}: commit -> receiver p50 ${p50} ms, p99 ${p99} ms over ${fromCommit.length} deliveries`,
      );
      rows.push({
        name: `commit -> receiver, ${label} (p50 / p99 ms)`,
        value: `${p50} / ${p99}${refused ? ` (${refused} refused)` : ''}`,
        target: limit ? `p99 < ${limit}` : '',
        pass: limit ? p99 < limit && refused === 0 : undefined,
      });
      if (kind === 'update') {
        // The same deliveries from when the partner's call was sent: the target's span plus the call's own queueing.
        const fromCall = latencies('call');
        console.log(
          `  webhooks: ${label}: call -> receiver p50 ${percentile(fromCall, 50)} ms, p99 ${percentile(fromCall, 99)} ms`,
        );
        rows.push({
          name: `call -> receiver, ${label} (p50 / p99 ms)`,
          value: `${percentile(fromCall, 50)} / ${percentile(fromCall, 99)}`,
          target: '',
        });
      }
    };
    // Creates first: the run with hanging endpoints leaves their breakers open for a while.
    await latencyRun('create', CREATE_RATE, `${CREATE_RATE} creates/s, all endpoints healthy`, 0);
    await latencyRun('update', RATE, `${RATE} updates/s, all endpoints healthy`, 0, 250);
    await latencyRun('update', RATE, `${RATE} updates/s, 10% of endpoints never answer`, 1, 400);
    return rows;
  } finally {
    for (const w of extraWorkers) await w.stop();
    await receiver.close();
  }
}
