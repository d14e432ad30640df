import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { generateInternalKeyPair, InternalTokenMinter } from '@platform/auth';
import { defineRoute, resultOf } from '@platform/contracts';
import { createLogger } from '@platform/observability';
import { startTestService, type TestService } from '@platform/testing';
import type { ServiceDefinition, ServiceRuntime } from '../src';
import { serviceListener } from '../src/listener';

const KNOWN = randomUUID();
const callerSchema = resultOf(z.object({ origin: z.string().nullable(), clientIp: z.string().nullable() }));
const visit = defineRoute({
  operationId: 'visit',
  method: 'post',
  path: '/widget/v1/properties/{propertyId}/visit',
  service: 'merchants',
  access: 'public',
  summary: 'visit',
  tag: 'Test',
  params: z.object({ propertyId: z.string() }),
  body: z.object({ page: z.string() }),
  response: callerSchema,
  errors: [],
});
const keys = defineRoute({
  operationId: 'keys',
  method: 'get',
  path: '/.well-known/test-keys.json',
  service: 'merchants',
  access: 'public',
  summary: 'keys',
  tag: 'Test',
  response: callerSchema,
  errors: [],
});
const partnerRoute = defineRoute({
  operationId: 'mine',
  method: 'get',
  path: '/portal/mine',
  service: 'merchants',
  permission: 'merchants:read',
  summary: 'mine',
  tag: 'Test',
  response: resultOf(z.object({ partner: z.string() })),
  errors: [],
});

type Routes = typeof visit | typeof keys | typeof partnerRoute;
const definition: ServiceDefinition<unknown, Record<string, never>, Routes, undefined> = {
  name: 'public-routes',
  schema: 'public_routes',
  audience: 'merchants',
  listen: { portEnv: 'P_PORT', hostEnv: 'P_HOST', defaultPort: 0 },
  migrations: {},
  routes: [visit, keys, partnerRoute],
  propertyHostname: () => async (propertyId) => (propertyId === KNOWN ? 'example.com' : undefined),
  handlers: () => ({
    visit: ({ caller }) => ({ result: { origin: caller.origin ?? null, clientIp: caller.clientIp ?? null } }),
    keys: ({ caller }) => ({ result: { origin: caller.origin ?? null, clientIp: caller.clientIp ?? null } }),
    mine: ({ caller }) => ({ result: { partner: caller.partnerId } }),
  }),
};

describe('public routes on the chassis', () => {
  const gatewayKeys = generateInternalKeyPair();
  const minter = new InternalTokenMinter(gatewayKeys.privateKey);
  const publicToken = minter.mintPublic('merchants');
  const partnerToken = minter.mint(
    { partnerId: 'p-1', keyId: 'k-1', permissions: ['merchants:read'], requiredFields: [] },
    'merchants',
  );
  let svc: TestService<unknown, unknown, undefined>;

  beforeAll(async () => {
    svc = await startTestService(definition, { INTERNAL_JWT_PUBLIC_KEY: gatewayKeys.publicKey });
  });
  afterAll(async () => {
    await svc?.close();
  });

  const post = (propertyId: string, headers: Record<string, string>) =>
    fetch(`${svc.url}/widget/v1/properties/${propertyId}/visit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ page: '/' }),
    });

  it("when the gateway's public token brings an Origin on the property's hostname, then the handler gets a PublicCaller and the answer CORS for that origin", async () => {
    const res = await post(KNOWN, {
      authorization: `Bearer ${publicToken}`,
      origin: 'https://shop.example.com',
      'x-forwarded-for': '203.0.113.9',
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ result: { origin: 'https://shop.example.com', clientIp: '203.0.113.9' } });
    expect(res.headers.get('access-control-allow-origin')).toBe('https://shop.example.com');
    expect(res.headers.get('vary')).toBe('Origin');
  });

  it("when a partner's token or none comes to a public route, or the public token to a partner's route, then 401", async () => {
    expect((await post(KNOWN, { authorization: `Bearer ${partnerToken}`, origin: 'https://example.com' })).status).toBe(
      401,
    );
    expect((await post(KNOWN, { origin: 'https://example.com' })).status).toBe(401);
    expect(
      (await fetch(`${svc.url}/portal/mine`, { headers: { authorization: `Bearer ${publicToken}` } })).status,
    ).toBe(401);
    expect(
      (await fetch(`${svc.url}/portal/mine`, { headers: { authorization: `Bearer ${partnerToken}` } })).status,
    ).toBe(200);
  });

  it('when the Origin is elsewhere, then 403 WIDGET.ORIGIN_NOT_ALLOWED before the handler and no CORS header; an unknown property is 404', async () => {
    const foreign = await post(KNOWN, {
      authorization: `Bearer ${publicToken}`,
      origin: 'https://example.com.evil.net',
    });
    expect(foreign.status).toBe(403);
    expect(((await foreign.json()) as { error: { code: string } }).error.code).toBe('WIDGET.ORIGIN_NOT_ALLOWED');
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    expect(
      (await post(randomUUID(), { authorization: `Bearer ${publicToken}`, origin: 'https://example.com' })).status,
    ).toBe(404);
  });

  it('when the Origin is not in the form a browser sends (user info, path, default port), then 403 and it is never echoed', async () => {
    for (const origin of [
      'https://example.com\\@evil.net',
      'https://x@example.com',
      'https://example.com/',
      'https://example.com:443',
    ]) {
      const res = await post(KNOWN, { authorization: `Bearer ${publicToken}`, origin });
      expect({
        origin,
        status: res.status,
        code: ((await res.json()) as { error: { code: string } }).error.code,
      }).toEqual({
        origin,
        status: 403,
        code: 'WIDGET.ORIGIN_NOT_ALLOWED',
      });
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
    }
  });

  it('when a CORS preflight asks for POST from an allowed origin, then 204 with the CORS answer; from another, 403', async () => {
    const ask = (origin: string) =>
      fetch(`${svc.url}/widget/v1/properties/${KNOWN}/visit`, {
        method: 'OPTIONS',
        headers: {
          authorization: `Bearer ${publicToken}`,
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type',
        },
      });
    const allowed = await ask('http://example.com:3000');
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('http://example.com:3000');
    expect(allowed.headers.get('access-control-allow-methods')).toBe('POST');
    expect((await ask('https://other.net')).status).toBe(403);
  });

  it('when a public route takes no propertyId, then no Origin is needed and no CORS header is sent', async () => {
    const res = await fetch(`${svc.url}/.well-known/test-keys.json`, {
      headers: { authorization: `Bearer ${publicToken}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('when a service has public routes with a propertyId but no propertyHostname, then it refuses to start', () => {
    const runtime = {
      logger: createLogger('test', 'silent'),
      config: { INTERNAL_JWT_PUBLIC_KEY: gatewayKeys.publicKey, NODE_ENV: 'test' },
      runs: () => true,
    };
    const { propertyHostname: _unused, ...withoutLookup } = definition;
    expect(() =>
      serviceListener(withoutLookup, undefined, runtime as unknown as ServiceRuntime<unknown, never>),
    ).toThrow(/propertyHostname/);
  });
});
