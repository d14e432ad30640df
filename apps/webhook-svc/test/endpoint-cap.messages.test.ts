import { randomBytes } from 'node:crypto';
import { exampleEventPayload } from '@platform/contracts';
import { startWebhookReceiver, type WebhookReceiver } from '@platform/launcher';
import { act, publishEvents, startTestService, testInfra, waitFor } from '@platform/testing';
import { webhookService } from '../src/service';

const CAP = 2;
const EVENTS = 12;

// The whole service (API, event consumer, delivery worker) on its own database and exchange.
describe('webhook deliveries to an endpoint at its cap', () => {
  let t: Awaited<ReturnType<typeof start>>;
  let receiver: WebhookReceiver;
  const start = () =>
    startTestService(webhookService, {
      WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64'),
      WEBHOOK_ALLOW_LOOPBACK: 'true',
      WEBHOOK_ENDPOINT_CONCURRENCY: String(CAP),
      WEBHOOK_POLL_MS: '100',
    });

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    t = await start();
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  it(`when ${EVENTS} events come at once for an endpoint that may have ${CAP} attempts in flight, then at most ${CAP} are open at a time, and the others wait and go in order, each once`, async () => {
    const answerMs = 150;
    let open = 0;
    let mostOpen = 0;
    receiver.route('/busy', () => {
      open += 1;
      mostOpen = Math.max(mostOpen, open);
      // Scheduled before the receiver's own answer timer, so it runs first: `open` never undercounts.
      setTimeout(() => (open -= 1), answerMs);
      return { status: 204, delayMs: answerMs };
    });
    const partner = t.partner();
    const created = await act(t.url, 'POST', '/portal/webhooks', {
      token: partner.token,
      body: { url: `${receiver.url}/busy` },
    });
    expect(created.status).toBe(201);

    const example = exampleEventPayload('domain.deleted');
    const payloads = Array.from({ length: EVENTS }, (_, i) => ({
      ...example,
      params: { ...example.params, domain: `busy-${i}.example.com` },
    }));
    await publishEvents((await testInfra()).amqpUrl, t.exchange, partner.id, payloads);
    const arrived = await waitFor(() => (receiver.received.length >= EVENTS ? receiver.received : undefined), {
      timeoutMs: 30_000,
      what: `${EVENTS} deliveries`,
    });

    expect(mostOpen).toBe(CAP);
    expect(new Set(arrived.map((r) => r.headers['webhook-id'])).size).toBe(EVENTS);
    expect(arrived).toHaveLength(EVENTS);
    // Held deliveries start in the order their events came: none arrives more than CAP places away from it.
    const order = arrived.map((r) =>
      Number(/busy-(\d+)\./.exec((JSON.parse(r.body) as { params: { domain: string } }).params.domain)![1]),
    );
    order.forEach((event, place) => expect(Math.abs(event - place)).toBeLessThan(CAP));
  });
});
