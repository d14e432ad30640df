import { createTestDatabase, deleteBrokerTopology, startSmtpServer, testInfra, uniqueName, type TestSmtpServer } from '@platform/testing';
import { launchPlatform, type Platform } from '@platform/launcher';

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
  partner(name?: string, keyArgs?: string[]): Promise<Partner>;
  /** fetch against the gateway with a partner's key; JSON bodies are encoded for you. */
  call(partner: Partner | string | undefined, method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<ApiResponse>;
  close(): Promise<void>;
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- assertions navigate arbitrary JSON
  text: string;
}

/** A whole platform on a fresh database and exchange, with a local SMTP server. */
export async function startSystem(env: NodeJS.ProcessEnv = {}): Promise<System> {
  const { amqpUrl } = await testInfra();
  const db = await createTestDatabase('system');
  const smtp = await startSmtpServer();
  const exchange = uniqueName('events');
  const platform = await launchPlatform({
    databaseUrl: db.url,
    amqpUrl,
    env: { LOG_LEVEL: 'warn', EVENTS_EXCHANGE: exchange, SMTP_URL: smtp.url, ...env },
  });
  const gateway = platform.urls.gateway;

  const partner = async (name = uniqueName('partner'), keyArgs: string[] = []): Promise<Partner> => {
    const created = await platform.admin<{ id: string }>('partner', 'create', '--name', name);
    const key = await platform.admin<{ key: string }>('key', 'create', '--partner', created.id, ...keyArgs);
    return { id: created.id, key: key.key };
  };

  const call: System['call'] = async (who, method, path, body, headers = {}) => {
    const key = typeof who === 'string' ? who : who?.key;
    const res = await fetch(`${gateway}${path}`, {
      method,
      headers: {
        ...(key ? { authorization: `Bearer ${key}` } : {}),
        ...(body !== undefined && typeof body !== 'string' ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: res.status, headers: res.headers, body: parsed, text };
  };

  return {
    platform,
    gateway,
    exchange,
    smtp,
    databaseUrl: db.url,
    partner,
    call,
    close: async () => {
      await platform.stop();
      await smtp.close();
      await db.drop();
      await deleteBrokerTopology(amqpUrl, { exchanges: [exchange, `${exchange}.unrouted`], queues: [`${exchange}.unrouted`] });
    },
  };
}

/** The contract's error envelope with a given code and status. */
export const envelope = (code: string, status: number) => ({
  error: expect.objectContaining({ code, ns: code.split('.')[0], status, message: expect.any(String) }),
});
