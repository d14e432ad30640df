import path from 'node:path';
import { exampleEventPayload } from '@platform/contracts';
import {
  defaultDistDir,
  freePort,
  startProcess,
  startWebhookReceiver,
  waitUntilReady,
  type ManagedProcess,
  type WebhookReceiver,
} from '@platform/launcher';
import { publishEvents, testInfra, waitFor } from '@platform/testing';
import { startSystem, type OwnSystem, type Partner } from './support/system';

const EVENTS = 2_000;

describe('webhook workers share the load and a killed one loses nothing', () => {
  let sys: OwnSystem;
  let partner: Partner;
  let receiver: WebhookReceiver;
  let second: ManagedProcess | undefined;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    // Leases short enough for the test to see the second worker take over the killed one's deliveries.
    // A killed worker re-sends at most its attempts in flight (each slot is held until its result is written): 16 here.
    sys = await startSystem({
      WEBHOOK_LEASE_MS: '7000',
      WEBHOOK_TOTAL_TIMEOUT_MS: '1500',
      WEBHOOK_POLL_MS: '200',
      WEBHOOK_CONCURRENCY: '16',
    });
    partner = await sys.partner();
  });
  afterAll(async () => {
    await second?.stop();
    await sys?.close();
    await receiver?.close();
  });

  it(`when a worker is SIGKILLed while ${EVENTS} events are in flight, then a second worker finishes: every event delivered at least once, duplicates under 1%`, async () => {
    const [port, adminPort] = [await freePort(), await freePort()];
    second = startProcess({
      name: 'webhook-worker-2',
      script: path.join(process.env.PLATFORM_DIST_DIR ?? defaultDistDir(), 'apps', 'webhook-svc', 'main.js'),
      env: {
        ...sys.platform.env,
        WEBHOOK_ROLE: 'worker',
        WEBHOOKS_PORT: String(port),
        WEBHOOKS_ADMIN_PORT: String(adminPort),
        SERVICE_JWT_PRIVATE_KEY: sys.platform.keys.servicesPrivateKey,
      },
    });
    await waitUntilReady(second, `http://127.0.0.1:${adminPort}/health/ready`);
    await sys.arrange(partner, 'POST', '/portal/webhooks', { url: `${receiver.url}/crash` });

    const payload = exampleEventPayload('domain.deleted');
    await publishEvents(
      (await testInfra()).amqpUrl,
      sys.exchange,
      partner.id,
      Array.from({ length: EVENTS }, () => payload),
    );
    await waitFor(() => receiver.received.length >= EVENTS / 5 || undefined, {
      timeoutMs: 30_000,
      what: 'the first deliveries',
    });
    sys.platform.processes.get('webhook-svc')!.child.kill('SIGKILL');
    const killedAt = receiver.received.length;

    const distinct = await waitFor(
      () => {
        const ids = new Set(receiver.received.map((r) => r.headers['webhook-id']));
        return ids.size >= EVENTS ? ids : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 100, what: `all ${EVENTS} deliveries` },
    );
    const duplicates = receiver.received.length - distinct.size;
    console.log(`killed after ${killedAt} deliveries; ${distinct.size} delivered, ${duplicates} duplicate(s)`);
    expect(killedAt).toBeLessThan(EVENTS);
    expect(distinct.size).toBe(EVENTS);
    expect(duplicates).toBeLessThan(EVENTS / 100);
  });
});
