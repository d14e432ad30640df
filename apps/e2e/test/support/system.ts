import {
  act,
  arrange,
  createTestDatabase,
  deleteEventTopology,
  mailboxIn,
  startSmtpServer,
  testInfra,
  uniqueName,
  type ApiResponse,
  type Mailbox,
} from '@platform/testing';
import { Client } from 'pg';
import { launchPlatform, runAdmin, type Platform, type ProcessName } from '@platform/launcher';
import { countBoot, currentTestFile } from './boots';
import { LOCAL_SCANS, sharedPlatform } from './shared-platform';

export interface Partner {
  id: string;
  key: string;
}

export interface System {
  urls: Record<ProcessName, string>;
  /** Each process's admin listener (/health/ready, /metrics), on loopback. */
  adminUrls: Record<ProcessName, string>;
  gateway: string;
  exchange: string;
  smtp: Mailbox;
  databaseUrl: string;
  /** Runs the gateway's admin CLI with --json and returns its one JSON object. */
  admin<T = Record<string, unknown>>(...args: string[]): Promise<T>;
  /** A connection to the system's database (as its owner) for assertions on what services stored; closed with the system. */
  db(): Promise<Client>;
  partner(name?: string, keyArgs?: string[]): Promise<Partner>;
  /** Setting up data through the gateway: like call, but a non-2xx answer throws. */
  arrange(partner: Partner, method: string, path: string, body?: unknown): Promise<ApiResponse>;
  /** fetch against the gateway with a partner's key; JSON bodies are encoded for you. */
  call(
    partner: Partner | string | undefined,
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<ApiResponse>;
  close(): Promise<void>;
}

/** A system whose processes the test owns: it may stop, kill and restart them. */
export interface OwnSystem extends System {
  platform: Platform;
}

export type { ApiResponse } from '@platform/testing';

type Parts = Pick<System, 'urls' | 'adminUrls' | 'exchange' | 'smtp' | 'databaseUrl' | 'admin'> & {
  closeRest(): Promise<void>;
};

/** The test's view of a running platform: calls through the gateway, partners, its database. */
function systemOf(parts: Parts): System {
  const gateway = parts.urls.gateway;
  const partner = async (name = uniqueName('partner'), keyArgs: string[] = []): Promise<Partner> => {
    const created = await parts.admin<{ id: string }>('partner', 'create', '--name', name);
    const key = await parts.admin<{ key: string }>('key', 'create', '--partner', created.id, ...keyArgs);
    return { id: created.id, key: key.key };
  };
  let client: Promise<Client> | undefined;
  const db = () =>
    (client ??= (async () => {
      const c = new Client({ connectionString: parts.databaseUrl });
      await c.connect();
      return c;
    })());
  return {
    ...parts,
    gateway,
    db,
    partner,
    call: (who, method, path, body, headers = {}) =>
      act(gateway, method, path, { token: typeof who === 'string' ? who : who?.key, body, headers }),
    arrange: (who, method, path, body) => arrange(gateway, method, path, { token: who.key, body }),
    close: async () => {
      try {
        await (await client)?.end();
      } finally {
        await parts.closeRest();
      }
    },
  };
}

/**
 * The platform every suite shares (started once per run by globalSetup, with SHARED_ENV): for
 * tests that only call it. Its data is everyone's: scope what a test reads to its own partners.
 * close() ends only this file's connection.
 */
export async function sharedSystem(): Promise<System> {
  const shared = await sharedPlatform();
  return systemOf({
    urls: shared.urls,
    adminUrls: shared.adminUrls,
    exchange: shared.exchange,
    databaseUrl: shared.databaseUrl,
    smtp: mailboxIn(shared.mailDir),
    admin: (...args) => runAdmin(shared.distDir, shared.env, args),
    closeRest: async () => undefined,
  });
}

/** A whole platform of the test's own, on a fresh database and exchange, with a local SMTP server: for tests that stop processes or need other settings. */
export async function startSystem(env: NodeJS.ProcessEnv = {}): Promise<OwnSystem> {
  const { amqpUrl } = await testInfra();
  const db = await createTestDatabase('system');
  const smtp = await startSmtpServer();
  const exchange = uniqueName('events');
  await countBoot(currentTestFile());
  // Services that did boot may have declared the exchange before the platform failed to start.
  const platform = await launchPlatform({
    databaseUrl: db.url,
    amqpUrl,
    env: { LOG_LEVEL: 'warn', EVENTS_EXCHANGE: exchange, SMTP_URL: smtp.url, ...LOCAL_SCANS, ...env },
  }).catch(async (err: unknown) => {
    await deleteEventTopology(amqpUrl, exchange).catch(() => undefined);
    throw err;
  });
  const closeRest = async () => {
    try {
      await platform.stop();
      await smtp.close();
      await db.drop();
    } finally {
      // The services declared the exchange, its unrouted exchange and queue, and their consumers' queues.
      await deleteEventTopology(amqpUrl, exchange, platform.queues());
    }
  };
  const system = systemOf({
    urls: platform.urls,
    adminUrls: platform.adminUrls,
    exchange,
    smtp,
    databaseUrl: db.url,
    admin: platform.admin,
    closeRest,
  });
  return { ...system, platform };
}

/** The contract's error envelope with a given code and status. */
export const envelope = (code: string, status: number) => ({
  error: expect.objectContaining({ code, ns: code.split('.')[0], status, message: expect.any(String) }),
});
