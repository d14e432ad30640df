import { act, arrange, createTestDatabase, deleteEventTopology, startSmtpServer, testInfra, uniqueName, type ApiResponse, type TestSmtpServer } from '@platform/testing';
import { Client } from 'pg';
import { launchPlatform, platformQueues, type Platform } from '@platform/launcher';

export interface Partner {
  id: string;
  key: string;
}

export interface System {
  platform: Platform;
  gateway: string;
  exchange: string;
  smtp: TestSmtpServer;
  databaseUrl: string;
  /** A connection to the system's database (as its owner) for assertions on what services stored; closed with the system. */
  db(): Promise<Client>;
  partner(name?: string, keyArgs?: string[]): Promise<Partner>;
  /** Setting up data through the gateway: like call, but a non-2xx answer throws. */
  arrange(partner: Partner, method: string, path: string, body?: unknown): Promise<ApiResponse>;
  /** fetch against the gateway with a partner's key; JSON bodies are encoded for you. */
  call(partner: Partner | string | undefined, method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<ApiResponse>;
  close(): Promise<void>;
}

export type { ApiResponse } from '@platform/testing';

/** A whole platform on a fresh database and exchange, with a local SMTP server. */
export async function startSystem(env: NodeJS.ProcessEnv = {}): Promise<System> {
  const { amqpUrl } = await testInfra();
  const db = await createTestDatabase('system');
  const smtp = await startSmtpServer();
  const exchange = uniqueName('events');
  // Services that did boot may have declared the exchange before the platform failed to start.
  const platform = await launchPlatform({
    databaseUrl: db.url,
    amqpUrl,
    env: { LOG_LEVEL: 'warn', EVENTS_EXCHANGE: exchange, SMTP_URL: smtp.url, ...env },
  }).catch(async (err: unknown) => {
    await deleteEventTopology(amqpUrl, exchange).catch(() => undefined);
    throw err;
  });
  const gateway = platform.urls.gateway;

  const partner = async (name = uniqueName('partner'), keyArgs: string[] = []): Promise<Partner> => {
    const created = await platform.admin<{ id: string }>('partner', 'create', '--name', name);
    const key = await platform.admin<{ key: string }>('key', 'create', '--partner', created.id, ...keyArgs);
    return { id: created.id, key: key.key };
  };

  let client: Promise<Client> | undefined;
  const openDb = () =>
    (client ??= (async () => {
      const c = new Client({ connectionString: db.url });
      await c.connect();
      return c;
    })());

  const call: System['call'] = (who, method, path, body, headers = {}) =>
    act(gateway, method, path, { token: typeof who === 'string' ? who : who?.key, body, headers });

  return {
    platform,
    gateway,
    exchange,
    smtp,
    databaseUrl: db.url,
    db: openDb,
    partner,
    call,
    arrange: (who, method, path, body) => arrange(gateway, method, path, { token: who.key, body }),
    close: async () => {
      try {
        await (await client)?.end();
        await platform.stop();
        await smtp.close();
        await db.drop();
      } finally {
        // The services declared the exchange, its unrouted exchange and queue, and their consumers' queues.
        await deleteEventTopology(amqpUrl, exchange, platformQueues(exchange));
      }
    },
  };
}

/** The contract's error envelope with a given code and status. */
export const envelope = (code: string, status: number) => ({
  error: expect.objectContaining({ code, ns: code.split('.')[0], status, message: expect.any(String) }),
});
