import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { generateInternalKeyPair, InternalTokenMinter } from '@platform/auth';
import { adminListen, listenOf, type PlatformApp } from '@platform/config';
import { PERMISSIONS } from '@platform/contracts';
import { freePort, startProcess, waitUntilReady, type ManagedProcess } from '@platform/launcher';
import { deleteBrokerTopology } from './broker';
import { createTestDatabase, testInfra, uniqueName } from './infra';

export interface ServiceProcessOptions {
  /** The app's name: its bundle is dist/apps/<app>/main.js (the project's test target builds it first). */
  app: PlatformApp;
  /** Its schema (the test database's name starts with it). */
  schema: string;
  /** The audience its internal tokens are for (contracts' service name, e.g. 'merchants'). */
  audience: string;
  env?: NodeJS.ProcessEnv;
}

export interface ServiceProcess {
  url: string;
  databaseUrl: string;
  /** The running process (a new one after restart). */
  readonly process: ManagedProcess;
  /** An internal token for a new partner (every permission), as the gateway would mint it. */
  partner(): { id: string; token: string };
  /** Starts it again on the same ports, database and exchange (after a kill), and waits until it is ready. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A service as a process of its own (its built bundle), on its own database and exchange, for a
 * component test that must kill it, e.g. between a commit and the answer, and start it again.
 */
export async function startServiceProcess(options: ServiceProcessOptions): Promise<ServiceProcess> {
  const { amqpUrl } = await testInfra();
  const database = await createTestDatabase(options.schema);
  const keys = generateInternalKeyPair();
  const exchange = uniqueName(`${options.schema}_events`);
  const [port, adminPort] = [await freePort(), await freePort()];
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    DATABASE_URL: database.url,
    AMQP_URL: amqpUrl,
    EVENTS_EXCHANGE: exchange,
    INTERNAL_JWT_PUBLIC_KEY: keys.publicKey,
    MIGRATE_ON_BOOT: 'true',
    LOG_LEVEL: 'warn',
    NODE_ENV: 'test',
    // Its port variables from the one ports table (e.g. MERCHANTS_PORT, MERCHANTS_ADMIN_PORT).
    [listenOf(options.app).portEnv]: String(port),
    [adminListen(listenOf(options.app)).portEnv]: String(adminPort),
    ...options.env,
  };
  const script = path.resolve(process.env.PLATFORM_DIST_DIR ?? 'dist', 'apps', options.app, 'main.js');
  const start = async () => {
    const proc = startProcess({ name: options.app, script, env });
    await waitUntilReady(proc, `http://127.0.0.1:${adminPort}/health/ready`);
    return proc;
  };
  let current = await start();
  const minter = new InternalTokenMinter(keys.privateKey);
  return {
    url: `http://127.0.0.1:${port}`,
    databaseUrl: database.url,
    get process() {
      return current;
    },
    partner: () => {
      const id = `partner_${randomUUID()}`;
      const caller = { partnerId: id, keyId: randomUUID(), permissions: [...PERMISSIONS], requiredFields: [] };
      return { id, token: minter.mint(caller, options.audience) };
    },
    restart: async () => {
      await current.stop('SIGKILL');
      current = await start();
    },
    close: async () => {
      current.child.kill('SIGCONT');
      await current.stop();
      await database.drop();
      await deleteBrokerTopology(amqpUrl, {
        exchanges: [exchange, `${exchange}.unrouted`],
        queues: [`${exchange}.unrouted`],
      });
    },
  };
}
