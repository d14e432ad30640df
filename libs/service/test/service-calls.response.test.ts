import { z } from 'zod';
import { generateInternalKeyPair, InternalTokenMinter } from '@platform/auth';
import { defineRoute, resultOf } from '@platform/contracts';
import { AppError } from '@platform/http';
import { startTestService, type TestService } from '@platform/testing';
import type { ServiceDefinition } from '../src';

const echoSchema = resultOf(z.object({ partner: z.string(), requestId: z.string(), calls: z.number() }));
const route = <const Id extends string>(
  operationId: Id,
  method: 'get' | 'post',
  path: string,
  service: 'merchants' | 'billing',
) =>
  defineRoute({
    operationId,
    method,
    path,
    service,
    permission: 'merchants:read',
    summary: operationId,
    tag: 'Test',
    response: echoSchema,
    errors: [],
  });

const echo = route('echo', 'get', '/portal/echo', 'merchants');
const flakyGet = route('flakyGet', 'get', '/portal/flaky', 'merchants');
const flakyPost = route('flakyPost', 'post', '/portal/flaky', 'merchants');
const named = defineRoute({
  operationId: 'named',
  method: 'get',
  path: '/portal/named/{name}',
  service: 'merchants',
  permission: 'merchants:read',
  summary: 'named',
  tag: 'Test',
  params: z.object({ name: z.string() }),
  query: z.object({ tag: z.array(z.string()).optional() }),
  response: resultOf(z.object({ name: z.string(), tags: z.array(z.string()) })),
  errors: [],
});
/** echo as a caller with a stale contract would see it: the answer no longer matches. */
const staleEcho = { ...echo, response: resultOf(z.object({ partner: z.number() })) };
const relay = defineRoute({
  operationId: 'relay',
  method: 'get',
  path: '/portal/relay/{what}',
  service: 'billing',
  permission: 'merchants:read',
  summary: 'relay',
  tag: 'Test',
  params: z.object({ what: z.enum(['echo', 'flaky', 'post', 'named', 'stale']) }),
  response: z.object({ result: z.unknown() }),
  errors: [],
});

let calls = 0;
const target: ServiceDefinition<
  unknown,
  Record<string, never>,
  typeof echo | typeof flakyGet | typeof flakyPost | typeof named,
  undefined
> = {
  name: 'call-target',
  schema: 'call_target',
  audience: 'merchants',
  listen: { portEnv: 'T_PORT', hostEnv: 'T_HOST', defaultPort: 0 },
  migrations: {},
  routes: [echo, flakyGet, flakyPost, named],
  handlers: () => {
    const answer = (caller: { partnerId: string }, requestId: string | string[] | undefined) => ({
      result: { partner: caller.partnerId, requestId: String(requestId), calls },
    });
    return {
      echo: ({ caller, req }) => answer(caller, req.headers['x-request-id']),
      // Unavailable on every odd call: a retry of an idempotent call gets through.
      flakyGet: ({ caller, req }) => {
        calls += 1;
        if (calls % 2 === 1) throw new AppError('SERVICE.UNAVAILABLE');
        return answer(caller, req.headers['x-request-id']);
      },
      flakyPost: ({ caller, req }) => {
        calls += 1;
        if (calls % 2 === 1) throw new AppError('SERVICE.UNAVAILABLE');
        return answer(caller, req.headers['x-request-id']);
      },
      named: ({ params, query }) => ({ result: { name: params.name, tags: query.tag ?? [] } }),
    };
  },
};

const caller: ServiceDefinition<unknown, Record<string, never>, typeof relay, undefined> = {
  name: 'call-source',
  schema: 'call_source',
  audience: 'billing',
  listen: { portEnv: 'S_PORT', hostEnv: 'S_HOST', defaultPort: 0 },
  migrations: {},
  routes: [relay],
  handlers: (_ctx, runtime) => ({
    relay: async ({ caller: who, params }) => {
      const merchants = runtime.call('merchants');
      if (params.what === 'named')
        return merchants.call(named, { as: who, params: { name: 'a b/c' }, query: { tag: ['x', 'y z'] } });
      if (params.what === 'stale') return merchants.call(staleEcho, { as: who });
      return merchants.call({ echo, flaky: flakyGet, post: flakyPost }[params.what], { as: who });
    },
  }),
};

describe('calls between services', () => {
  const serviceKeys = generateInternalKeyPair();
  let b: TestService<unknown, unknown, undefined>;
  let a: TestService<unknown, unknown, undefined>;
  const keys = { SERVICE_JWT_PRIVATE_KEY: serviceKeys.privateKey, SERVICE_JWT_PUBLIC_KEY: serviceKeys.publicKey };

  beforeAll(async () => {
    b = await startTestService(target, keys);
    a = await startTestService(caller, { ...keys, MERCHANTS_URL: b.url });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  const get = (path: string, requestId = 'req-calls-1') => {
    const p = a.partner();
    return fetch(`${a.url}${path}`, {
      headers: { authorization: `Bearer ${p.token}`, 'x-request-id': requestId },
    }).then(async (res) => ({
      status: res.status,
      body: (await res.json()) as { result: { partner: string; requestId: string }; error?: { code: string } },
      partner: p.id,
    }));
  };

  it("when a service calls another on a partner's behalf, then the target sees that partner and the same request id", async () => {
    const res = await get('/portal/relay/echo', 'req-calls-echo');
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({ partner: res.partner, requestId: 'req-calls-echo' });
  });

  it('when an idempotent call finds the target unavailable once, then it is retried and succeeds; a POST is not retried', async () => {
    calls = 0;
    const viaGet = await get('/portal/relay/flaky');
    expect([viaGet.status, calls]).toEqual([200, 2]);
    calls = 0;
    const viaPost = await get('/portal/relay/post');
    expect([viaPost.status, calls]).toEqual([503, 1]);
  });

  it('when a route has path params and a query, then the call fills them in encoded and answers typed by the route', async () => {
    const res = await get('/portal/relay/named');
    expect(res.status).toBe(200);
    expect(res.body.result).toEqual({ name: 'a b/c', tags: ['x', 'y z'] });
  });

  it("when the target's answer does not match the route's response schema, then the call fails with 500 SERVER.INTERNAL", async () => {
    const res = await get('/portal/relay/stale');
    expect(res.status).toBe(500);
    expect(res.body.error?.code).toBe('SERVER.INTERNAL');
  });

  it("when the services' key did not sign the token, then the target refuses it", async () => {
    const stranger = new InternalTokenMinter(generateInternalKeyPair().privateKey, 60, 'services');
    const token = stranger.mint(
      { partnerId: 'p', keyId: 'k', permissions: ['merchants:read'], requiredFields: [] },
      'merchants',
    );
    expect((await fetch(`${b.url}/portal/echo`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
  });

  it('when the target is down, then the call answers 503 SERVICE.UNAVAILABLE in the envelope', async () => {
    await b.service.stop();
    const res = await get('/portal/relay/echo');
    expect(res.status).toBe(503);
    expect(res.body.error?.code).toBe('SERVICE.UNAVAILABLE');
  });
});
