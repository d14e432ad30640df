import { createServer } from 'node:net';
import { z } from 'zod';
import { defineRoute, resultOf } from '@platform/contracts';
import { createTestDatabase, startTestService, testInfra } from '@platform/testing';
import { writeOutbox } from '@platform/messaging';
import { startService, type ServiceDefinition } from '../src';

const pingRoute = defineRoute({
  operationId: 'ping',
  method: 'get',
  path: '/portal/ping',
  service: 'billing',
  permission: 'products:read',
  summary: 'Ping',
  tag: 'Test',
  response: resultOf(z.object({ partner: z.string() })),
  errors: [],
});

const withRoute: ServiceDefinition<unknown, Record<string, never>, typeof pingRoute, undefined> = {
  name: 'chassis-test',
  schema: 'chassis_test',
  audience: 'billing',
  listen: { portEnv: 'CHASSIS_TEST_PORT', hostEnv: 'CHASSIS_TEST_HOST', defaultPort: 0 },
  migrations: {},
  routes: [pingRoute],
  handlers: () => ({ ping: ({ caller }) => ({ result: { partner: caller.partnerId } }) }),
};

describe('startService', () => {
  it('when a route is called with a token lacking its permission, then 403 AUTH.FORBIDDEN; with it, the handler answers and the call is counted', async () => {
    const t = await startTestService(withRoute);
    try {
      const allowed = t.partner({ permissions: ['products:read'] });
      const denied = t.partner({ permissions: ['domains:read'] });
      const ok = await fetch(`${t.url}/portal/ping`, { headers: { authorization: `Bearer ${allowed.token}` } });
      expect([ok.status, await ok.json()]).toEqual([200, { result: { partner: allowed.id } }]);
      const forbidden = await fetch(`${t.url}/portal/ping`, { headers: { authorization: `Bearer ${denied.token}` } });
      expect(forbidden.status).toBe(403);
      expect(((await forbidden.json()) as { error: { code: string; data: unknown } }).error).toMatchObject({
        code: 'AUTH.FORBIDDEN',
        data: { required: 'products:read' },
      });
      const metrics = await (await fetch(`${t.adminUrl}/metrics`)).text();
      expect(metrics).toContain(
        'http_requests_total{operation="ping",method="GET",status="200",service="chassis-test"} 1',
      );
      expect(metrics).toContain(
        'http_requests_total{operation="ping",method="GET",status="403",service="chassis-test"} 1',
      );
    } finally {
      await t.close();
    }
  });

  it('when a worker has no routes, then it serves health and metrics on its admin port and /portal is not there', async () => {
    const t = await startTestService({ ...withRoute, routes: undefined, handlers: undefined, audience: undefined });
    try {
      expect((await fetch(`${t.adminUrl}/health/ready`)).status).toBe(200);
      expect((await fetch(`${t.adminUrl}/metrics`)).status).toBe(200);
      expect((await fetch(`${t.url}/health/live`)).status).toBe(200);
      expect((await fetch(`${t.url}/portal/ping`)).status).toBe(404);
    } finally {
      await t.close();
    }
  });

  it('when MIGRATE_ON_BOOT is off and the schema was never migrated, then boot fails with a clear error', async () => {
    const { amqpUrl } = await testInfra();
    const database = await createTestDatabase('chassis');
    try {
      await expect(
        startService(withRoute, {
          port: 0,
          adminPort: 0,
          env: { DATABASE_URL: database.url, AMQP_URL: amqpUrl, INTERNAL_JWT_PUBLIC_KEY: 'x', LOG_LEVEL: 'silent' },
        }),
      ).rejects.toThrow('schema chassis_test lacks 6 migration(s)');
    } finally {
      await database.drop();
    }
  });

  it('when the broker is unreachable at boot, then startService fails instead of serving', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as { port: number }).port;
    await new Promise((resolve) => closed.close(resolve));
    const database = await createTestDatabase('chassis');
    try {
      await expect(
        startService(withRoute, {
          port: 0,
          adminPort: 0,
          env: {
            DATABASE_URL: database.url,
            AMQP_URL: `amqp://guest:guest@127.0.0.1:${port}`,
            INTERNAL_JWT_PUBLIC_KEY: 'x',
            MIGRATE_ON_BOOT: 'true',
            LOG_LEVEL: 'silent',
          },
        }),
      ).rejects.toThrow();
    } finally {
      await database.drop();
    }
  });

  it('when events wait in the outbox and a consumer has a queue, then /metrics shows the backlog, its age and the queue depths', async () => {
    const t = await startTestService(
      {
        ...withRoute,
        consumers: () => [{ bindings: ['nothing.bound'], handler: async () => undefined, retryDelaysMs: [1000] }],
      },
      { OUTBOX_RELAY_ENABLED: 'false' },
    );
    try {
      const { db } = t.service.runtime;
      await db.transaction().execute((trx) =>
        writeOutbox(
          trx,
          'chassis_test',
          'test',
          [1, 2, 3].map((n) => ({
            partnerId: 'p',
            aggregateId: `a${n}`,
            payload: { event: 'test.happened', params: {} },
          })),
        ),
      );
      const metrics = await (await fetch(`${t.adminUrl}/metrics`)).text();
      expect(metrics).toMatch(/^outbox_unpublished_events\{service="chassis-test"\} 3$/m);
      expect(metrics).toMatch(/^outbox_oldest_unpublished_seconds\{service="chassis-test"\} \d/m);
      // The queue the chassis names: <exchange>.<service>.
      expect(metrics).toContain(
        `\nconsumer_queue_messages{queue="${t.exchange}.chassis-test",kind="parked",service="chassis-test"} 0\n`,
      );
    } finally {
      await t.close();
    }
  });
});
