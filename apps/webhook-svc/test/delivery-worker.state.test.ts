import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Registry } from 'prom-client';
import { Webhook } from 'standardwebhooks';
import { inTransaction } from '@platform/db';
import { startWebhookReceiver, type WebhookReceiver } from '@platform/launcher';
import { createLogger } from '@platform/observability';
import { createOutboundClient, type OutboundClient } from '@platform/outbound';
import { startTestService, waitFor } from '@platform/testing';
import { insertSingleDelivery, notifyDue } from '../src/db/deliveries.repository';
import { DeliveryWorker } from '../src/delivery/delivery-worker';
import { newSigningSecret, SecretBox } from '../src/domain/secrets';
import { webhookService } from '../src/service';

const KEY = randomBytes(32).toString('base64');
const RETRY_MS = 60_000;
const ENDPOINT_CAP = 2;

describe('delivery worker, against a local receiver', () => {
  let t: Awaited<ReturnType<typeof start>>;
  let receiver: WebhookReceiver;
  let outbound: OutboundClient;
  let worker: DeliveryWorker;
  const secrets = new SecretBox(KEY);
  const start = () => startTestService(webhookService, { WEBHOOK_SECRET_KEY: KEY, WEBHOOK_ROLE: 'api' });
  const db = () => t.service.runtime.db;

  beforeAll(async () => {
    t = await start();
    receiver = await startWebhookReceiver();
    outbound = createOutboundClient({ allowLoopback: true, connectTimeoutMs: 2_000, totalTimeoutMs: 5_000 });
    worker = new DeliveryWorker({
      db: db(),
      logger: createLogger('delivery-worker-test', 'silent'),
      secrets,
      outbound,
      retry: { scheduleMs: [0, RETRY_MS, 2 * RETRY_MS], jitter: 0 },
      leaseMs: 30_000,
      totalTimeoutMs: 5_000,
      pollMs: 50,
      firstConcurrency: 8,
      retryConcurrency: 4,
      endpointConcurrency: ENDPOINT_CAP,
      breaker: { volumeThreshold: 5, errorThresholdPercentage: 50, resetTimeoutMs: 30_000 },
      listen: t.service.runtime.pool.options,
      registry: new Registry(),
    });
    worker.start();
  });
  afterAll(async () => {
    await worker?.stop();
    await outbound?.close();
    await receiver?.close();
    await t?.close();
  });

  /** An endpoint at `url`, its secret sealed as the service stores it; `previous`: a rotated-out secret that still signs. */
  const endpoint = async (url: string, previous?: string) => {
    const id = randomUUID();
    const secret = newSigningSecret();
    await db()
      .insertInto('endpoints')
      .values({
        id,
        partner_id: 'p',
        url,
        description: '',
        events: null,
        secret: secrets.seal(secret),
        previous_secret: previous ? secrets.seal(previous) : null,
        previous_secret_expires_at: previous ? new Date(Date.now() + 3_600_000) : null,
      })
      .execute();
    return { id, secret };
  };
  /** A delivery queued the way the API queues a test send: committed with a NOTIFY. */
  const queue = async (endpointId: string) => {
    const id = randomUUID();
    const body = JSON.stringify({ event: 'domain.deleted', params: { id } });
    await inTransaction(db(), async (trx) => {
      await insertSingleDelivery(trx, { id, partnerId: 'p', endpointId, event: 'domain.deleted', body });
      await notifyDue(trx);
    });
    return { id, body };
  };
  const delivery = (id: string) =>
    db().selectFrom('deliveries').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const attempts = (id: string) =>
    db().selectFrom('attempts').selectAll().where('delivery_id', '=', id).orderBy('attempted_at').execute();
  const endpointRow = (id: string) =>
    db().selectFrom('endpoints').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const once = async <T>(what: string, check: () => Promise<T | undefined | false>) =>
    waitFor(check, { timeoutMs: 10_000, what });

  it('when the endpoint answers 2xx, then the delivery is marked succeeded, its attempt logged with the answer, and the endpoint counted healthy', async () => {
    receiver.route('/ok', () => ({ status: 200, body: 'thanks' }));
    const ep = await endpoint(`${receiver.url}/ok`);
    const { id } = await queue(ep.id);

    const row = await once('the delivery to succeed', async () =>
      (await delivery(id)).status === 'succeeded' ? delivery(id) : undefined,
    );
    expect(row).toMatchObject({ attempt_count: 1, next_attempt_at: null, lease_until: null });
    expect(await attempts(id)).toEqual([
      expect.objectContaining({ status_code: 200, error: null, response_body: 'thanks', response_truncated: false }),
    ]);
    expect(await endpointRow(ep.id)).toMatchObject({
      enabled: true,
      failing_since: null,
      last_success_at: expect.any(Date),
    });
  });

  it("when the endpoint answers 5xx, then the delivery stays pending for a retry at the schedule's next step, and once due it is sent again, same id and body", async () => {
    receiver.route('/flaky', (_request, count) => (count === 0 ? { status: 500, body: 'down' } : { status: 204 }));
    const ep = await endpoint(`${receiver.url}/flaky`);
    const { id, body } = await queue(ep.id);

    const row = await once('the first attempt to be recorded', async () =>
      (await delivery(id)).attempt_count === 1 ? delivery(id) : undefined,
    );
    const [first] = await attempts(id);
    expect(row).toMatchObject({ status: 'pending', lease_until: null });
    expect(first).toMatchObject({ status_code: 500, response_body: 'down' });
    const waits = row.next_attempt_at!.getTime() - first.attempted_at.getTime();
    expect(waits).toBeGreaterThanOrEqual(RETRY_MS);
    expect(waits).toBeLessThan(RETRY_MS + 2_000);
    expect((await endpointRow(ep.id)).failing_since).toEqual(first.attempted_at);

    // Its time comes: the retry lane claims it.
    await db().updateTable('deliveries').set({ next_attempt_at: new Date() }).where('id', '=', id).execute();
    await once('the retry to succeed', async () => (await delivery(id)).status === 'succeeded');
    expect((await delivery(id)).attempt_count).toBe(2);
    const sent = receiver.received.filter((r) => r.path === '/flaky');
    expect(sent.map((r) => [r.headers['webhook-id'], r.body])).toEqual([
      [id, body],
      [id, body],
    ]);
  });

  it('when many deliveries wait for one slow endpoint, then no more than its cap are in flight to it at once, and all arrive', async () => {
    const slow = await inFlightReceiver(150);
    try {
      const ep = await endpoint(slow.url);
      const ids: string[] = [];
      for (let i = 0; i < 3 * ENDPOINT_CAP; i++) ids.push((await queue(ep.id)).id);

      await once('every delivery to succeed', async () => {
        const rows = await db().selectFrom('deliveries').select('status').where('id', 'in', ids).execute();
        return rows.every((r) => r.status === 'succeeded');
      });
      expect(slow.served()).toBe(ids.length);
      expect(slow.maxInFlight()).toBe(ENDPOINT_CAP);
    } finally {
      await slow.close();
    }
  });

  it("when a delivery is signed, then its headers verify with the endpoint's secret and with a rotated-out one that still signs, and with no other", async () => {
    receiver.route('/signed', () => ({ status: 204 }));
    const previous = newSigningSecret();
    const ep = await endpoint(`${receiver.url}/signed`, previous);
    const { id, body } = await queue(ep.id);

    const [request] = await once('the signed delivery', async () => {
      const got = receiver.received.filter((r) => r.path === '/signed');
      return got.length > 0 ? got : undefined;
    });
    const headers = request.headers as Record<string, string>;
    expect(headers['webhook-id']).toBe(id);
    expect(request.body).toBe(body);
    expect(new Webhook(ep.secret).verify(request.body, headers)).toEqual(JSON.parse(body));
    expect(new Webhook(previous).verify(request.body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(newSigningSecret()).verify(request.body, headers)).toThrow();
  });
});

/** A receiver on 127.0.0.1 that answers every request 204 after `delayMs` and counts the requests open at once. */
async function inFlightReceiver(delayMs: number) {
  let open = 0;
  let max = 0;
  let served = 0;
  const server: Server = createServer((req, res) => {
    open += 1;
    max = Math.max(max, open);
    req.resume();
    res.on('finish', () => {
      open -= 1;
      served += 1;
    });
    setTimeout(() => res.writeHead(204).end(), delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/slow`,
    maxInFlight: () => max,
    served: () => served,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
