import { randomUUID } from 'node:crypto';
import type { Client } from 'pg';
import { subscriptionCopied } from './support/settled-domain';
import { envelope, sharedSystem, type Partner, type System } from './support/system';
import type { WidgetSettings } from '@platform/contracts';

// The widget's public endpoints through the gateway: no API key, the Origin rule, CORS, validation and caching.
describe('public widget endpoints', () => {
  let sys: System;
  let partner: Partner;
  let db: Client;

  /** A new domain, once billing-svc's subscription has been copied onto its row (the last write a create causes). */
  const createDomain = async (extra: Record<string, unknown> = {}) => {
    const host = `widget-${randomUUID().slice(0, 8)}.example.com`;
    const res = await sys.arrange(partner, 'POST', '/portal/domains', {
      domain: host,
      company_name: `Widget ${host}`,
      account_email: `owner@${host}`,
      ...extra,
    });
    const d = res.body.result as { id: string; hostname: string; instance_property_id: string };
    await subscriptionCopied(db, d.id);
    return d;
  };
  /** A visitor's browser calling a public path: no API key, the page's Origin. */
  const visit = (
    method: string,
    path: string,
    origin: string | undefined,
    body?: unknown,
    headers: Record<string, string> = {},
  ) => sys.call(undefined, method, path, body, { ...(origin ? { origin } : {}), ...headers });
  const settingsPath = (propertyId: string) => `/widget/v1/properties/${propertyId}/settings`;
  const viewsPath = (propertyId: string) => `/widget/v1/properties/${propertyId}/views`;
  /** The domain and property rows' row versions (xmin changes on any UPDATE) and the property's activation events. */
  const footprint = async (domainId: string, propertyId: string) => {
    const rows = await db.query(
      `SELECT d.status, d.xmin::text AS domain_xmin, p.xmin::text AS property_xmin,
              (SELECT count(*)::int FROM domains.outbox o WHERE o.routing_key = 'property.activated' AND o.message->'payload'->'params'->>'property_id' = $2) AS activations
         FROM domains.domains d JOIN domains.properties p ON p.id = d.property_id WHERE d.id = $1`,
      [domainId, propertyId],
    );
    return rows.rows[0] as { status: string; domain_xmin: string; property_xmin: string; activations: number };
  };

  beforeAll(async () => {
    sys = await sharedSystem();
    partner = await sys.partner();
    db = await sys.db();
  });
  afterAll(async () => {
    await sys?.close();
  });

  it("when the widget asks for a property's settings from its hostname with no API key, then 200 with the settings, CORS for that origin alone, an ETag and Cache-Control: private, no-cache (the answer follows the visitor's region)", async () => {
    const d = await createDomain({ default_notice_type: 'FOOTER', primary_color: '#112233' });
    const origin = `https://${d.hostname}`;
    const res = await visit('GET', settingsPath(d.instance_property_id), origin);
    expect(res.status).toBe(200);
    const s = (res.body as { result: WidgetSettings }).result;
    expect(s).toMatchObject({
      property_id: d.instance_property_id,
      hostname: d.hostname,
      active: false,
      notice_type: 'FOOTER',
      primary_color: '#112233',
      data_collection: [],
      dpo: null,
    });
    expect(s.company.name).toBe(`Widget ${d.hostname}`);
    expect(s.categories.map((c) => c.name)).toEqual(['necessary', 'functional', 'analytics', 'marketing']);
    expect(s.categories[0].required).toBe(true);
    expect(s.consent_revision).toMatch(/^[\w-]{10,}$/);
    expect(res.headers.get('access-control-allow-origin')).toBe(origin);
    expect(res.headers.get('vary')).toMatch(/Origin/);
    expect(res.headers.get('etag')).toMatch(/^"[\w-]+"$/);
    expect(res.headers.get('cache-control')).toBe('private, no-cache');
  });

  it('when the Origin is a subdomain of the hostname or names another port, then it is allowed', async () => {
    const d = await createDomain();
    for (const origin of [`https://shop.${d.hostname}`, `http://${d.hostname}:8443`, `https://a.b.${d.hostname}`]) {
      const res = await visit('GET', settingsPath(d.instance_property_id), origin);
      expect({ origin, status: res.status, cors: res.headers.get('access-control-allow-origin') }).toEqual({
        origin,
        status: 200,
        cors: origin,
      });
    }
  });

  it('when the Origin is another site, a look-alike, not as a browser serialises it, "null" or missing, then 403 WIDGET.ORIGIN_NOT_ALLOWED with no CORS header, and a view writes nothing', async () => {
    const d = await createDomain();
    const before = await footprint(d.id, d.instance_property_id);
    for (const origin of [
      'https://evil.example.net',
      `https://not${d.hostname}`,
      `https://${d.hostname}.evil.net`,
      `https://${d.hostname}\\@evil.net`,
      `https://a.b.${d.hostname.toUpperCase()}`,
      'null',
      undefined,
    ]) {
      for (const [method, path, body] of [
        ['GET', settingsPath(d.instance_property_id), undefined],
        ['POST', viewsPath(d.instance_property_id), { url: `https://${d.hostname}/` }],
      ] as const) {
        const res = await visit(method, path, origin, body);
        expect({
          origin,
          method,
          status: res.status,
          body: res.body,
          cors: res.headers.get('access-control-allow-origin'),
        }).toEqual({
          origin,
          method,
          status: 403,
          body: envelope('WIDGET.ORIGIN_NOT_ALLOWED', 403),
          cors: null,
        });
      }
    }
    expect(await footprint(d.id, d.instance_property_id)).toEqual(before);
    expect(before).toMatchObject({ status: 'NEW', activations: 0 });
  });

  it("when a browser's CORS preflight comes from the property's hostname, then 204 allows the method and JSON; from another site, 403 and no CORS header", async () => {
    const d = await createDomain();
    const origin = `https://www.${d.hostname}`;
    const asked = { 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' };
    const allowed = await visit('OPTIONS', viewsPath(d.instance_property_id), origin, undefined, asked);
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(origin);
    expect(allowed.headers.get('access-control-allow-methods')).toBe('POST');
    expect(allowed.headers.get('access-control-allow-headers')).toMatch(/Content-Type/i);
    const refused = await visit(
      'OPTIONS',
      viewsPath(d.instance_property_id),
      'https://evil.example.net',
      undefined,
      asked,
    );
    expect(refused.status).toBe(403);
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    expect((await footprint(d.id, d.instance_property_id)).status).toBe('NEW');
  });

  it('when a repeat view sends the ETag back, then 304 with no body; a change the visitor consents to gives a new ETag and consent_revision, a colour change a new ETag only', async () => {
    const d = await createDomain({ has_scripts: true });
    const origin = `https://${d.hostname}`;
    const first = await visit('GET', settingsPath(d.instance_property_id), origin);
    const etag = first.headers.get('etag')!;
    const revision = (first.body as { result: WidgetSettings }).result.consent_revision;
    const again = await visit('GET', settingsPath(d.instance_property_id), origin, undefined, {
      'if-none-match': etag,
    });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    expect(again.headers.get('access-control-allow-origin')).toBe(origin);

    await sys.arrange(partner, 'PUT', `/portal/domains/${d.id}`, { primary_color: '#abcdef' });
    const recoloured = await visit('GET', settingsPath(d.instance_property_id), origin, undefined, {
      'if-none-match': etag,
    });
    expect(recoloured.status).toBe(200);
    expect(recoloured.headers.get('etag')).not.toBe(etag);
    expect((recoloured.body as { result: WidgetSettings }).result.consent_revision).toBe(revision);

    await sys.arrange(partner, 'PUT', `/portal/domains/${d.id}`, { has_scripts: false });
    const changed = await visit('GET', settingsPath(d.instance_property_id), origin, undefined, {
      'if-none-match': recoloured.headers.get('etag')!,
    });
    expect(changed.status).toBe(200);
    expect((changed.body as { result: WidgetSettings }).result).toMatchObject({ has_scripts: false });
    expect((changed.body as { result: WidgetSettings }).result.consent_revision).not.toBe(revision);
  });

  it('when the property is unknown, not an id, or its domain was deleted, then 404 RESOURCE.NOT_FOUND for settings and views', async () => {
    const d = await createDomain();
    await sys.arrange(partner, 'DELETE', `/portal/domains/${d.id}`);
    for (const id of [randomUUID(), 'not-a-property', d.instance_property_id]) {
      for (const [method, path] of [
        ['GET', settingsPath(id)],
        ['POST', viewsPath(id)],
      ] as const) {
        const res = await visit(method, path, `https://${d.hostname}`, method === 'POST' ? {} : undefined);
        expect({ id, method, status: res.status, body: res.body }).toEqual({
          id,
          method,
          status: 404,
          body: envelope('RESOURCE.NOT_FOUND', 404),
        });
      }
    }
  });

  it('when a view carries bad input, then 400 in the envelope and nothing is written', async () => {
    const d = await createDomain();
    const origin = `https://${d.hostname}`;
    const before = await footprint(d.id, d.instance_property_id);
    const cases: [unknown, string][] = [
      [{ url: 42 }, 'VALIDATION.INVALID'],
      [{ url: 'https://x/', visitor_ip: '1.2.3.4' }, 'VALIDATION.INVALID'],
      ['{"url":', 'VALIDATION.MALFORMED_JSON'],
    ];
    for (const [body, code] of cases) {
      const res = await visit('POST', viewsPath(d.instance_property_id), origin, body);
      expect({ body, status: res.status, code: (res.body as { error: { code: string } }).error.code }).toEqual({
        body,
        status: 400,
        code,
      });
    }
    expect(await footprint(d.id, d.instance_property_id)).toEqual(before);
  });

  it('when a public request body is over 16 KB, then 413 REQUEST.TOO_LARGE and nothing is written', async () => {
    const d = await createDomain();
    const before = await footprint(d.id, d.instance_property_id);
    const res = await visit('POST', viewsPath(d.instance_property_id), `https://${d.hostname}`, {
      url: `https://${d.hostname}/${'a'.repeat(17 * 1024)}`,
    });
    expect(res.status).toBe(413);
    expect(res.body).toEqual(envelope('REQUEST.TOO_LARGE', 413));
    expect(await footprint(d.id, d.instance_property_id)).toEqual(before);
  });

  it('when the OpenAPI document is read, then the public widget operations need no API key and name no permission', async () => {
    const res = await sys.call(undefined, 'GET', '/openapi.json');
    const paths = (
      res.body as { paths: Record<string, Record<string, { security?: unknown[]; 'x-permission'?: string }>> }
    ).paths;
    for (const [path, method] of [
      ['/widget/v1/properties/{propertyId}/settings', 'get'],
      ['/widget/v1/properties/{propertyId}/views', 'post'],
    ] as const) {
      expect(paths[path][method].security).toEqual([]);
      expect(paths[path][method]['x-permission']).toBeUndefined();
    }
    expect(paths['/portal/domains'].get['x-permission']).toBe('domains:read');
  });
});
