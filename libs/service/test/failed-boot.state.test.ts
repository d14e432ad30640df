import { createServer, type Server } from 'node:net';
import { connect } from 'amqplib';
import { Client } from 'pg';
import { generateInternalKeyPair } from '@platform/auth';
import { consumerQueueNames, deleteBrokerTopology } from '@platform/messaging';
import { createTestDatabase, testInfra, uniqueName, waitFor } from '@platform/testing';
import { startService, type ServiceDefinition } from '../src';

/** Timers and sockets: what keeps a process from exiting. */
const handles = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout' || r === 'TCPSocketWrap').length;

async function holdPort(): Promise<{ server: Server; port: number }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as { port: number }).port };
}

async function consumerCounts(amqpUrl: string, queues: string[]): Promise<number[]> {
  const connection = await connect(amqpUrl);
  try {
    const channel = await connection.createChannel();
    const counts: number[] = [];
    for (const queue of queues) counts.push((await channel.checkQueue(queue)).consumerCount);
    return counts;
  } finally {
    await connection.close();
  }
}

async function connectionsOf(databaseUrl: string, applicationName: string): Promise<number> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1',
      [applicationName],
    );
    return rows[0]!.n;
  } finally {
    await client.end();
  }
}

describe('startService when a step of the boot fails', () => {
  it('when the port is taken, then boot fails and no consumer, database connection, job or timer of the service is left', async () => {
    const { amqpUrl } = await testInfra();
    const database = await createTestDatabase('failboot');
    const schema = uniqueName('failboot').toLowerCase();
    const exchange = uniqueName('failboot_events');
    // The queue the chassis names for the service's consumer.
    const queue = `${exchange}.failboot-svc`;
    const held = await holdPort();
    let jobRuns = 0;
    const definition: ServiceDefinition<unknown, Record<string, never>, never, undefined> = {
      name: 'failboot-svc',
      schema,
      listen: { portEnv: 'FAILBOOT_PORT', hostEnv: 'FAILBOOT_HOST', defaultPort: 0 },
      migrations: {},
      consumers: () => [{ bindings: ['nothing.bound'], handler: async () => undefined, retryDelaysMs: [1000] }],
      // Due at once and every 5 ms: it runs during the boot, and would go on running if left behind.
      jobs: () => [{ name: 'tick', intervalMs: 5, run: async () => void jobRuns++ }],
    };
    const names = consumerQueueNames(queue, 1);
    const queues = [names.work, names.parked, ...names.retry];
    const before = handles();
    try {
      await expect(
        startService(definition, {
          port: held.port,
          adminPort: 0,
          env: {
            DATABASE_URL: database.url,
            AMQP_URL: amqpUrl,
            EVENTS_EXCHANGE: exchange,
            INTERNAL_JWT_PUBLIC_KEY: generateInternalKeyPair().publicKey,
            MIGRATE_ON_BOOT: 'true',
            LOG_LEVEL: 'silent',
          },
        }),
      ).rejects.toThrow(/EADDRINUSE/);
      const runsAtFailure = jobRuns;
      expect(runsAtFailure).toBeGreaterThan(0);
      expect(await consumerCounts(amqpUrl, queues)).toEqual(queues.map(() => 0));
      await waitFor(async () => (await connectionsOf(database.url, schema)) === 0, {
        what: 'no connection of the service in pg_stat_activity',
      });
      await waitFor(() => handles() <= before, { what: 'no timer or socket of the service left' });
      // 40 of the job's intervals: a runner left running would have run it again.
      await expect(waitFor(() => jobRuns > runsAtFailure, { timeoutMs: 200 })).rejects.toThrow('timed out');
    } finally {
      held.server.close();
      await database.drop();
      await deleteBrokerTopology(amqpUrl, {
        exchanges: [exchange, `${exchange}.unrouted`],
        queues: [`${exchange}.unrouted`, ...queues],
      });
    }
  });
});
