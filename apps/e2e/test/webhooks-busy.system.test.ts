import { exampleEventPayload } from '@platform/contracts';
import { startWebhookReceiver, type WebhookReceiver } from '@platform/launcher';
import { publishEvents, testInfra, waitFor } from '@platform/testing';
import { startSystem, type Partner, type System } from './support/system';

const CAP = 2;
const EVENTS = 12;

describe('webhook deliveries to an endpoint at its cap', () => {
  let sys: System;
  let partner: Partner;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    sys = await startSystem({ WEBHOOK_ENDPOINT_CONCURRENCY: String(CAP) });
    partner = await sys.partner();
  });
  afterAll(async () => {
    await sys?.close();
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
    await sys.arrange(partner, 'POST', '/portal/webhooks', { url: `${receiver.url}/busy` });

    const example = exampleEventPayload('domain.deleted');
    const payloads = Array.from({ length: EVENTS }, (_, i) => ({
      ...example,
      params: { ...example.params, domain: `busy-${i}.example.com` },
    }));
    await publishEvents((await testInfra()).amqpUrl, sys.exchange, partner.id, payloads);
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
