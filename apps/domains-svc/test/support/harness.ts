import type { Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import { generateInternalKeyPair, InternalTokenMinter } from '@platform/auth';
import type { EventMessage } from '@platform/contracts';
import { sql } from '@platform/db';
import { listenServer, serverPort } from '@platform/http';
import { createTestDatabase, startSmtpServer, testInfra, uniqueName, type TestSmtpServer } from '@platform/testing';
import { buildServer } from '../../src/app';
import { loadConfig } from '../../src/config';
import { buildDeps, SERVICE_AUDIENCE, type Deps } from '../../src/deps';

export interface TestPartner {
  id: string;
  token: string;
}

export interface ApiResponse {
  status: number;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- assertions navigate arbitrary JSON
}

export interface OutboxRow {
  routing_key: string;
  message: EventMessage;
}

export const WIDGET_BASE_URL = 'https://widget.test';

/** domains-svc in-process on port 0, on a fresh database, with a real SMTP server and real internal JWTs. */
export async function startDomainsSvc() {
  const database = await createTestDatabase('domains');
  const smtp: TestSmtpServer = await startSmtpServer();
  const keys = generateInternalKeyPair();
  const { amqpUrl } = await testInfra();
  const config = loadConfig({
    DATABASE_URL: database.url,
    AMQP_URL: amqpUrl,
    EVENTS_EXCHANGE: uniqueName('domains_events'),
    INTERNAL_JWT_PUBLIC_KEY: keys.publicKey,
    SMTP_URL: smtp.url,
    MAIL_POLL_MS: '50',
    LOG_LEVEL: 'silent',
    WIDGET_BASE_URL,
    INSTANCE_ID: '7',
    INSTANCE_NAME: 'test-instance',
    INSTANCE_HOSTNAME: 'instance.test',
    INSTANCE_REGION: 'eu',
  });
  const deps: Deps = await buildDeps(config);
  deps.start();
  const server: Server = await listenServer(buildServer(deps), 0);
  const base = `http://127.0.0.1:${serverPort(server)}`;
  const minter = new InternalTokenMinter(keys.privateKey);

  const partner = (requiredFields: string[] = []): TestPartner => {
    const id = `partner_${randomUUID()}`;
    return { id, token: minter.mint({ partnerId: id, keyId: randomUUID(), permissions: [], requiredFields }, SERVICE_AUDIENCE) };
  };

  const call = async (who: TestPartner | undefined, method: string, path: string, body?: unknown): Promise<ApiResponse> => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: {
        ...(who ? { authorization: `Bearer ${who.token}` } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };

  const outbox = async (partnerId: string, event?: string): Promise<OutboxRow[]> => {
    const { rows } = await sql<OutboxRow>`
      SELECT routing_key, message FROM domains.outbox
      WHERE message->>'partner_id' = ${partnerId} AND (${event ?? null}::text IS NULL OR routing_key = ${event ?? null})
      ORDER BY created_at`.execute(deps.db);
    return rows;
  };

  /** Test builder for states only the widget reaches (ACTIVE). */
  const setStatus = async (domainId: string, status: string) => {
    await sql`UPDATE domains.domains SET status = ${status}, is_active = ${status !== 'INACTIVE'} WHERE id = ${domainId}`.execute(deps.db);
  };

  return {
    base,
    deps,
    smtp,
    partner,
    call,
    outbox,
    setStatus,
    close: async () => {
      await new Promise((r) => server.close(r));
      await deps.close();
      await smtp.close();
      await database.drop();
    },
  };
}
export type Harness = Awaited<ReturnType<typeof startDomainsSvc>>;

let counter = 0;
export const uniqueHost = (prefix = 'shop') => `${prefix}-${Date.now().toString(36)}-${(counter++).toString(36)}-${randomUUID().slice(0, 6)}.example.com`;

export const createBody = (host: string, extra: Record<string, unknown> = {}) => ({
  domain: `https://${host}/landing`,
  company_name: `Company of ${host}`,
  account_email: `owner@${host}`,
  ...extra,
});

/** The contract's error envelope with a given code and status. */
export const envelope = (code: string, status: number) => ({
  error: expect.objectContaining({ code, ns: code.split('.')[0], status, message: expect.any(String) }),
});
