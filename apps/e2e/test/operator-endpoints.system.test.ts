import type { ProcessName } from '@platform/launcher';
import { envelope, sharedSystem, type System } from './support/system';

const PROCESSES: ProcessName[] = [
  'gateway',
  'domains-svc',
  'billing-svc',
  'merchants-svc',
  'consent-svc',
  'webhook-svc',
];

const bodyOf = async (res: Response) => {
  const text = await res.text();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text.slice(0, 80);
  }
};

describe('operator endpoints are on the admin listener, not the public port', () => {
  let sys: System;

  beforeAll(async () => {
    sys = await sharedSystem();
  });
  afterAll(async () => {
    await sys?.close();
  });

  it.each(PROCESSES)(
    'when %s is asked for /metrics or /health/ready on its public port, then 404 in the envelope; its admin port serves them',
    async (name) => {
      for (const path of ['/metrics', '/health/ready']) {
        const res = await fetch(`${sys.urls[name]}${path}`);
        expect({ path, status: res.status, body: await bodyOf(res) }).toEqual({
          path,
          status: 404,
          body: envelope('ROUTE.NOT_FOUND', 404),
        });
      }
      // Liveness stays on the public port: it tells nothing, and a load balancer checks the port it sends traffic to.
      expect((await fetch(`${sys.urls[name]}/health/live`)).status).toBe(200);

      const admin = sys.adminUrls[name];
      expect(new URL(admin).hostname).toBe('127.0.0.1');
      const metrics = await fetch(`${admin}/metrics`);
      expect(metrics.status).toBe(200);
      expect(metrics.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(await metrics.text()).toContain(`process_cpu_user_seconds_total{service="${name}"}`);
      const ready = await fetch(`${admin}/health/ready`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toMatchObject({ status: 'ok', checks: { database: 'ok' } });
      expect((await fetch(`${admin}/portal/domains`)).status).toBe(404);
    },
  );

  it("when domains-svc is ready, then its answer names every queue its consumers declared (a test run's clean-up deletes them)", async () => {
    const ready = (await (await fetch(`${sys.adminUrls['domains-svc']}/health/ready`)).json()) as { queues: string[] };
    // Its default consumer (subscription events) and its named one (merchant events), each with retry and parked queues.
    expect(ready.queues).toEqual(
      expect.arrayContaining([
        `${sys.exchange}.domains-svc`,
        `${sys.exchange}.domains-svc.merchants`,
        `${sys.exchange}.domains-svc.merchants.parked`,
      ]),
    );
  });
});
