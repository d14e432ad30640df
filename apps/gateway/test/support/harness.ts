import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';
import express from 'express';
import { z } from 'zod';
import { InternalTokenVerifier, PublicTokenVerifier, generateInternalKeyPair } from '@platform/auth';
import { defineRoute, errorObject, type RouteSpec } from '@platform/contracts';
import { createDb } from '@platform/db';
import { createHttpServer, listenServer, sendError, serverPort } from '@platform/http';
import { createLogger } from '@platform/observability';
import { createTestDatabase } from '@platform/testing';
import { loadConfig } from '../../src/config';
import { buildDeps, type Deps } from '../../src/deps';
import { migrateGateway } from '../../src/db/migrations';
import { buildAdminServer, buildServer } from '../../src/server';
import { GATEWAY_SCHEMA, type GatewayDb } from '../../src/db/tables';

const run = promisify(execFile);
const ADMIN = path.resolve(__dirname, '../../../../dist/apps/gateway/admin.js');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the built admin CLI as a real child process against the suite's database. */
export async function runCli(databaseUrl: string, args: string[]): Promise<CliResult> {
  try {
    const { stdout, stderr } = await run(process.execPath, [ADMIN, ...args], {
      env: { ...process.env, DATABASE_URL: databaseUrl },
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : 1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

/** `admin ... --json` that must succeed; returns its one JSON object. */
export async function admin<T = Record<string, unknown>>(databaseUrl: string, ...args: string[]): Promise<T> {
  const res = await runCli(databaseUrl, [...args, '--json']);
  if (res.code !== 0) throw new Error(`admin ${args.join(' ')} failed (${res.code}): ${res.stderr}`);
  return JSON.parse(res.stdout) as T;
}

export interface CreatedKey {
  id: string;
  key: string;
  prefix: string;
  partner_id: string;
  permissions: string[];
  allowed_ip: string | null;
  expires_at: string | null;
}

const echoSchema = z.object({ result: z.record(z.string(), z.unknown()) });

/** A small route table of our own, so these tests do not depend on the platform's. */
export const TEST_ROUTES: RouteSpec[] = [
  defineRoute({
    operationId: 'listThings',
    method: 'get',
    path: '/portal/things',
    service: 'domains',
    permission: 'domains:read',
    summary: 'List things',
    tag: 'Things',
    response: echoSchema,
    errors: [],
  }),
  defineRoute({
    operationId: 'createThing',
    method: 'post',
    path: '/portal/things',
    service: 'domains',
    permission: 'domains:write',
    summary: 'Create a thing',
    tag: 'Things',
    body: z.object({ name: z.string() }),
    response: echoSchema,
    errors: ['VALIDATION.INVALID'],
  }),
  defineRoute({
    operationId: 'getThing',
    method: 'get',
    path: '/portal/things/{thingId}',
    service: 'domains',
    permission: 'domains:read',
    summary: 'Get a thing',
    tag: 'Things',
    params: z.object({ thingId: z.string() }),
    response: echoSchema,
    errors: ['RESOURCE.NOT_FOUND'],
  }),
  defineRoute({
    operationId: 'deleteThing',
    method: 'delete',
    path: '/portal/things/{thingId}',
    service: 'domains',
    permission: 'domains:write',
    summary: 'Delete a thing',
    tag: 'Things',
    params: z.object({ thingId: z.string() }),
    response: echoSchema,
    errors: [],
  }),
  defineRoute({
    operationId: 'listProducts',
    method: 'get',
    path: '/portal/products',
    service: 'billing',
    permission: 'products:read',
    summary: 'Products',
    tag: 'Products',
    response: echoSchema,
    errors: [],
  }),
];

/** An Origin the stub service refuses on the widget's paths, as it would a page on another site. */
export const FOREIGN_ORIGIN = 'https://foreign.example';

export interface Upstream {
  url: string;
  publicKey: string;
  privateKey: string;
  /** POSTs naming "hold" that it is holding (unanswered) now. */
  held(): number;
  /** Lets every held POST go on to its answer. */
  release(): void;
  close(): Promise<void>;
}

/**
 * A real tiny service: refuses calls without the gateway's internal token (audience "domains"; its
 * public token on /widget/ paths),
 * echoes what it received, answers 404 in the envelope for /portal/things/missing and stalls on
 * /portal/things/slow, and refuses a /widget/ call from FOREIGN_ORIGIN with 403 WIDGET.ORIGIN_NOT_ALLOWED (as a
 * service refuses an Origin not on the property's hostname). Each POST gets the next sequence number (`seq`), so a test can tell a
 * replayed answer from a new execution; POST bodies naming "answer-500", "answer-503" or
 * "slow-<ms>" get that answer or that delay, and "hold" waits for release().
 */
export async function startUpstream(): Promise<Upstream> {
  const { publicKey, privateKey } = generateInternalKeyPair();
  const app = express();
  let seq = 0;
  let holding: (() => void)[] = [];
  // Like every service: no valid internal token from the gateway (its public token on the widget's paths), 401 in the envelope.
  const verifier = new InternalTokenVerifier(publicKey, 'domains');
  const publicVerifier = new PublicTokenVerifier(publicKey, 'domains');
  app.use((req, res, next) => {
    const header = req.header('authorization');
    const token = header?.startsWith('Bearer ') ? header.slice(7) : undefined;
    const caller = !token
      ? undefined
      : req.path.startsWith('/widget/')
        ? publicVerifier.verify(token) && 'public'
        : verifier.verify(token);
    if (!caller) return sendError(res, errorObject('AUTH.API_KEY', 'A valid internal token is required.'));
    res.locals.caller = caller;
    next();
  });
  app.use(express.text({ type: () => true, limit: '20mb' }));
  app.use('/widget/', (req, res, next) => {
    if (req.header('origin') !== FOREIGN_ORIGIN) return next();
    sendError(res, errorObject('WIDGET.ORIGIN_NOT_ALLOWED'));
  });
  app.get('/portal/things/missing', (_req, res) => {
    res
      .status(404)
      .json({ error: { code: 'RESOURCE.NOT_FOUND', ns: 'RESOURCE', message: 'No such thing.', status: 404 } });
  });
  app.get('/portal/things/slow', (_req, res) => {
    setTimeout(() => res.json({ result: {} }), 3_000).unref();
  });
  app.use((req, res, next) => {
    if (req.method !== 'POST') return next();
    res.locals.seq = ++seq;
    const body = typeof req.body === 'string' ? req.body : '';
    const error = (status: number, code: string) =>
      res.status(status).json({ error: { code, ns: code.split('.')[0], message: code, status } });
    if (body.includes('answer-500')) return void error(500, 'SERVER.INTERNAL');
    if (body.includes('answer-503')) return void error(503, 'SERVICE.UNAVAILABLE');
    const slow = /slow-(\d+)/.exec(body);
    if (slow) return void setTimeout(next, Number(slow[1])).unref();
    if (body.includes('hold')) return void holding.push(next);
    next();
  });
  app.use((req, res) => {
    res.status(req.method === 'POST' ? 201 : 200).json({
      result: {
        seq: res.locals.seq ?? null,
        method: req.method,
        url: req.originalUrl,
        body: typeof req.body === 'string' ? req.body : null,
        contentType: req.header('content-type') ?? null,
        requestId: req.header('x-request-id') ?? null,
        idempotencyKey: req.header('idempotency-key') ?? null,
        fingerprint: req.header('x-idempotency-fingerprint') ?? null,
        caller: res.locals.caller,
      },
    });
  });
  const server = await listenServer(createHttpServer(app), 0);
  return {
    url: `http://127.0.0.1:${serverPort(server)}`,
    publicKey,
    privateKey,
    held: () => holding.length,
    release: () => {
      const released = holding;
      holding = [];
      released.forEach((answer) => answer());
    },
    close: () => closeServer(server),
  };
}

export function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

/** A port nothing listens on (bound, then released). */
export async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = serverPort(server);
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface Gateway {
  url: string;
  /** The operator listener: health, readiness, metrics. */
  adminUrl: string;
  deps: Deps;
  close(): Promise<void>;
}

/** The gateway server in-process on an ephemeral port, configured like main.ts but from `env`. */
export async function startGateway(
  env: Record<string, string>,
  routes: RouteSpec[] = TEST_ROUTES,
  options: { now?: () => number } = {},
): Promise<Gateway> {
  const config = loadConfig({ LOG_LEVEL: 'silent', MIGRATE_ON_BOOT: 'true', NODE_ENV: 'test', ...env });
  const deps = await buildDeps(config, { routes, logger: createLogger('gateway-test', 'silent'), now: options.now });
  const server = await listenServer(buildServer(deps), 0);
  const admin = await listenServer(buildAdminServer(deps), 0);
  return {
    url: `http://127.0.0.1:${serverPort(server)}`,
    adminUrl: `http://127.0.0.1:${serverPort(admin)}`,
    deps,
    close: async () => {
      await closeServer(admin);
      await closeServer(server);
      await deps.close();
    },
  };
}

export interface Suite {
  databaseUrl: string;
  upstream: Upstream;
  /** Gateway env: this suite's database, upstream and signing key. */
  env: Record<string, string>;
  partner(requireFields?: string[]): Promise<string>;
  key(partnerId: string, ...args: string[]): Promise<CreatedKey>;
  close(): Promise<void>;
}

/** One database and one upstream per test file; gateways are started by the tests with this env. */
export async function startSuite(): Promise<Suite> {
  const database = await createTestDatabase('gateway');
  const { db } = createDb<GatewayDb>({ url: database.url, schema: GATEWAY_SCHEMA, max: 1 });
  await migrateGateway(db);
  await db.destroy();
  const upstream = await startUpstream();
  return {
    databaseUrl: database.url,
    upstream,
    env: {
      DATABASE_URL: database.url,
      INTERNAL_JWT_PRIVATE_KEY: upstream.privateKey,
      DOMAINS_URL: upstream.url,
      BILLING_URL: `http://127.0.0.1:${await deadPort()}`,
    },
    partner: async (requireFields = []) => {
      const args = ['partner', 'create', '--name', `partner-${Date.now()}`];
      if (requireFields.length > 0) args.push('--require-fields', requireFields.join(','));
      return (await admin<{ id: string }>(database.url, ...args)).id;
    },
    key: (partnerId, ...args) => admin<CreatedKey>(database.url, 'key', 'create', '--partner', partnerId, ...args),
    close: async () => {
      await upstream.close();
      await database.drop();
    },
  };
}

export const bearer = (key: string, headers: Record<string, string> = {}) => ({
  authorization: `Bearer ${key}`,
  ...headers,
});

export { envelope } from '@platform/testing';

/** A response body as loosely typed JSON, for assertions that navigate it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- assertions navigate arbitrary JSON
export const json = async (res: Response): Promise<any> => res.json();
