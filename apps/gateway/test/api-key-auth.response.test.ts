import { Client } from 'pg';
import { waitFor } from '@platform/testing';
import { runCli, startGateway, startSuite, bearer, envelope, type Gateway, type Suite, json } from './support/harness';

describe('API key authentication at the gateway', () => {
  let suite: Suite;
  let gateway: Gateway;
  let partnerId: string;

  beforeAll(async () => {
    suite = await startSuite();
    gateway = await startGateway(suite.env);
    partnerId = await suite.partner();
  });
  afterAll(async () => {
    await gateway?.close();
    await suite?.close();
  });

  const get = (headers: Record<string, string> = {}, path = '/portal/things', url = gateway.url) =>
    fetch(`${url}${path}`, { headers });

  async function expect401(res: Response) {
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.headers.get('www-authenticate')).toContain('Bearer');
    expect(await json(res)).toEqual(envelope('AUTH.API_KEY', 401));
  }

  it('when a valid key is sent, then the request reaches the service', async () => {
    const { key } = await suite.key(partnerId);
    expect((await get(bearer(key))).status).toBe(200);
  });

  it('when the Authorization header is missing, then 401 AUTH.API_KEY', async () => {
    await expect401(await get());
  });

  it('when the header is malformed or not a Bearer key, then 401 AUTH.API_KEY', async () => {
    const { key } = await suite.key(partnerId);
    await expect401(await get({ authorization: key }));
    await expect401(await get({ authorization: `Basic ${key}` }));
    await expect401(await get({ authorization: 'Bearer' }));
    await expect401(await get({ authorization: 'Bearer not-a-key' }));
  });

  it('when the key is unknown (right prefix, wrong secret, or an unknown prefix), then 401 AUTH.API_KEY', async () => {
    const { key } = await suite.key(partnerId);
    await expect401(await get(bearer(`${key.slice(0, -4)}AAAA`)));
    await expect401(await get(bearer(`pdm_live_AAAAAAAAAAAA_${'b'.repeat(40)}`)));
  });

  it('when a cached key is revoked with the CLI, then its very next request gets 401 AUTH.API_KEY', async () => {
    const { id, key } = await suite.key(partnerId);
    expect((await get(bearer(key))).status).toBe(200);
    expect((await get(bearer(key))).status).toBe(200);
    const revoke = await runCli(suite.databaseUrl, ['key', 'revoke', '--id', id, '--json']);
    expect(revoke.code).toBe(0);
    expect(JSON.parse(revoke.stdout)).toEqual(
      expect.objectContaining({ id, status: 'revoked', revoked_at: expect.any(String) }),
    );
    await expect401(await get(bearer(key)));
  });

  it('when the key has expired, then 401 AUTH.API_KEY', async () => {
    const { key } = await suite.key(partnerId, '--expires-at', '2020-01-01T00:00:00Z');
    await expect401(await get(bearer(key)));
  });

  it('when the key expires while cached, then the next request after its expiry gets 401', async () => {
    const expiresAt = new Date(Date.now() + 3_000).toISOString();
    const { key } = await suite.key(partnerId, '--expires-at', expiresAt);
    expect((await get(bearer(key))).status).toBe(200);
    await waitFor(async () => (await get(bearer(key))).status === 401, { timeoutMs: 8_000, what: 'the key to expire' });
  });

  it('when the key is pinned to another IP, then 401 AUTH.API_KEY; from its own IP it works', async () => {
    const pinned = await suite.key(partnerId, '--allowed-ip', '203.0.113.9');
    await expect401(await get(bearer(pinned.key)));
    const local = await suite.key(partnerId, '--allowed-ip', '127.0.0.1');
    expect((await get(bearer(local.key))).status).toBe(200);
  });

  it('when X-Forwarded-For comes from an untrusted peer, then it is ignored for the IP check', async () => {
    const pinned = await suite.key(partnerId, '--allowed-ip', '203.0.113.9');
    await expect401(await get(bearer(pinned.key, { 'x-forwarded-for': '203.0.113.9' })));
  });

  it('when X-Forwarded-For comes from a trusted proxy, then its client address is the one checked', async () => {
    const proxied = await startGateway({ ...suite.env, TRUSTED_PROXIES: '127.0.0.1' });
    try {
      const pinned = await suite.key(partnerId, '--allowed-ip', '203.0.113.9');
      expect(
        (await get(bearer(pinned.key, { 'x-forwarded-for': '203.0.113.9' }), '/portal/things', proxied.url)).status,
      ).toBe(200);
      await expect401(
        await get(bearer(pinned.key, { 'x-forwarded-for': '198.51.100.7' }), '/portal/things', proxied.url),
      );
    } finally {
      await proxied.close();
    }
  });

  it('when authentication fails for any reason, then every answer is the same 401: status, challenge and body byte for byte', async () => {
    const { key } = await suite.key(partnerId);
    const revoked = await suite.key(partnerId);
    expect((await runCli(suite.databaseUrl, ['key', 'revoke', '--id', revoked.id])).code).toBe(0);
    const expired = await suite.key(partnerId, '--expires-at', '2020-01-01T00:00:00Z');
    const pinned = await suite.key(partnerId, '--allowed-ip', '203.0.113.9');
    const failures: Record<string, Record<string, string>> = {
      missing: {},
      malformed: bearer('not-a-key'),
      'unknown prefix': bearer(`pdm_live_AAAAAAAAAAAA_${'b'.repeat(40)}`),
      'wrong secret': bearer(`${key.slice(0, -4)}AAAA`),
      revoked: bearer(revoked.key),
      expired: bearer(expired.key),
      'wrong IP': bearer(pinned.key),
    };
    const answers: Record<string, { status: number; challenge: string | null; body: string }> = {};
    for (const [kind, headers] of Object.entries(failures)) {
      const res = await get(headers);
      answers[kind] = { status: res.status, challenge: res.headers.get('www-authenticate'), body: await res.text() };
    }
    const expected = answers.missing;
    expect(expected.status).toBe(401);
    expect(JSON.parse(expected.body)).toEqual(envelope('AUTH.API_KEY', 401));
    for (const kind of Object.keys(failures)) expect({ kind, ...answers[kind] }).toEqual({ kind, ...expected });
  });

  it('when the key lacks the route permission, then 403 AUTH.FORBIDDEN names the permission in data.required', async () => {
    const { key } = await suite.key(partnerId, '--permissions', 'domains:read');
    expect((await get(bearer(key))).status).toBe(200);
    const res = await fetch(`${gateway.url}/portal/things`, {
      method: 'POST',
      headers: bearer(key, { 'content-type': 'application/json' }),
      body: JSON.stringify({ name: 'x' }),
    });
    expect(res.status).toBe(403);
    const body = await json(res);
    expect(body).toEqual(envelope('AUTH.FORBIDDEN', 403));
    expect(body.error.data).toEqual({ required: 'domains:write' });
  });

  it('when the revocation listener loses its connection, then a revocation still takes effect at once', async () => {
    const { id, key } = await suite.key(partnerId);
    expect((await get(bearer(key))).status).toBe(200);
    const admin = new Client({ connectionString: suite.databaseUrl });
    await admin.connect();
    try {
      await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'gateway_keys_listener' AND datname = current_database()`,
      );
      expect((await get(bearer(key))).status).toBe(200);
      expect((await runCli(suite.databaseUrl, ['key', 'revoke', '--id', id])).code).toBe(0);
      await expect401(await get(bearer(key)));
    } finally {
      await admin.end();
    }
  });
});
