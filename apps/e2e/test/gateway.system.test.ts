import { envelope, sharedSystem, type Partner, type System } from './support/system';

describe('gateway edge through real processes', () => {
  let sys: System;
  let partner: Partner;

  beforeAll(async () => {
    sys = await sharedSystem();
    partner = await sys.partner();
  });
  afterAll(() => sys?.close());

  it('when the key is missing, malformed, unknown or revoked, then 401 AUTH.API_KEY', async () => {
    expect((await sys.call(undefined, 'GET', '/portal/domains')).body).toEqual(envelope('AUTH.API_KEY', 401));
    expect((await sys.call('not-a-key', 'GET', '/portal/domains')).status).toBe(401);
    expect((await sys.call(`${partner.key.slice(0, -4)}AAAA`, 'GET', '/portal/domains')).status).toBe(401);
    const created = await sys.admin<{ id: string; key: string }>('key', 'create', '--partner', partner.id);
    expect((await sys.call(created.key, 'GET', '/portal/domains')).status).toBe(200);
    await sys.admin('key', 'revoke', '--id', created.id);
    const revoked = await sys.call(created.key, 'GET', '/portal/domains');
    expect(revoked.status).toBe(401);
    expect(revoked.body).toEqual(envelope('AUTH.API_KEY', 401));
  });

  it('when a key has expired or is used from another IP, then 401 AUTH.API_KEY', async () => {
    const expired = await sys.admin<{ key: string }>(
      'key',
      'create',
      '--partner',
      partner.id,
      '--expires-at',
      '2020-01-01T00:00:00Z',
    );
    expect((await sys.call(expired.key, 'GET', '/portal/domains')).body).toEqual(envelope('AUTH.API_KEY', 401));
    const pinned = await sys.admin<{ key: string }>(
      'key',
      'create',
      '--partner',
      partner.id,
      '--allowed-ip',
      '203.0.113.9',
    );
    expect((await sys.call(pinned.key, 'GET', '/portal/domains')).status).toBe(401);
    const local = await sys.admin<{ key: string }>(
      'key',
      'create',
      '--partner',
      partner.id,
      '--allowed-ip',
      '127.0.0.1',
    );
    expect((await sys.call(local.key, 'GET', '/portal/domains')).status).toBe(200);
  });

  it('when a key lacks the permission, then 403 AUTH.FORBIDDEN names it', async () => {
    const readOnly = await sys.admin<{ key: string }>(
      'key',
      'create',
      '--partner',
      partner.id,
      '--permissions',
      'domains:read',
    );
    expect((await sys.call(readOnly.key, 'GET', '/portal/domains')).status).toBe(200);
    const res = await sys.call(readOnly.key, 'POST', '/portal/domains', {
      domain: 'x.example.com',
      company_name: 'X',
      account_email: 'a@x.example.com',
    });
    expect(res.status).toBe(403);
    expect(res.body).toEqual(envelope('AUTH.FORBIDDEN', 403));
    expect(res.body.error.data.required).toBe('domains:write');
  });

  it('when the route, method, media type or size is wrong, then 404, 405, 415 and 413 in the envelope', async () => {
    expect((await sys.call(partner, 'GET', '/portal/nothing-here')).body).toEqual(envelope('ROUTE.NOT_FOUND', 404));
    const wrongMethod = await sys.call(partner, 'PATCH', '/portal/domains');
    expect(wrongMethod.body).toEqual(envelope('ROUTE.METHOD_NOT_ALLOWED', 405));
    const text = await sys.call(partner, 'POST', '/portal/domains', 'domain=x', { 'content-type': 'text/plain' });
    expect(text.body).toEqual(envelope('REQUEST.UNSUPPORTED_MEDIA_TYPE', 415));
    const big = await sys.call(
      partner,
      'POST',
      '/portal/domains',
      JSON.stringify({ domain: 'a.example.com', pad: 'x'.repeat(1_100_000) }),
      { 'content-type': 'application/json' },
    );
    expect(big.body).toEqual(envelope('REQUEST.TOO_LARGE', 413));
    const malformed = await sys.call(partner, 'POST', '/portal/domains', '{"domain":', {
      'content-type': 'application/json',
    });
    expect(malformed.body).toEqual(envelope('VALIDATION.MALFORMED_JSON', 400));
  });

  it('when a service is called directly without the internal token, then it refuses with 401', async () => {
    const res = await fetch(`${sys.urls['domains-svc']}/portal/domains`, {
      headers: { authorization: `Bearer ${partner.key}` },
    });
    expect(res.status).toBe(401);
  });

  it('when /openapi.json and /docs are requested, then the generated OpenAPI 3.1 document and a reference page answer', async () => {
    const doc = (await (await fetch(`${sys.gateway}/openapi.json`)).json()) as {
      openapi: string;
      paths: Record<string, unknown>;
    };
    expect(doc.openapi).toBe('3.1.0');
    for (const path of [
      '/portal/domains',
      '/portal/domains/{domainId}',
      '/portal/domains/{domainId}/invite',
      '/portal/domains/{domainId}/subdomains',
    ]) {
      expect(doc.paths[path]).toBeDefined();
    }
    const page = await fetch(`${sys.gateway}/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
  });

  it('when a request id is sent, then the answer carries it back', async () => {
    const res = await sys.call(partner, 'GET', '/portal/domains', undefined, { 'x-request-id': 'trace-abc-123' });
    expect(res.headers.get('x-request-id')).toBe('trace-abc-123');
  });
});
