import { envelope } from '@platform/testing';
import { receipt, receiptsPath, startConsent, token, type ConsentTest } from './support';

/** A public address DB-IP places in London (England, GB). */
const LONDON = '81.2.69.142';

describe('receipts: a visitor choice becomes a signed consent record', () => {
  let c: ConsentTest;
  beforeAll(async () => {
    c = await startConsent();
  });
  afterAll(() => c?.close());

  const stored = async (propertyId: string) =>
    c.db.selectFrom('records').selectAll().where('property_id', '=', propertyId).execute();

  it('when a page on the property accepts all, then 201 answers the record (ALLOWED, RCPT_ id, place from the forwarded address, company as controller) with CORS for that origin only', async () => {
    const p = c.partner();
    const domain = await c.domain(p.id);
    const body = receipt();
    const origin = `https://${domain.hostname}`;
    const res = await c.widget('POST', receiptsPath(domain.property_id), { origin, forwardedFor: LONDON, body });
    expect(res.status).toBe(201);
    expect(res.headers.get('access-control-allow-origin')).toBe(origin);
    expect(res.headers.get('vary')).toBe('Origin');
    const record = res.body.result;
    expect(record).toMatchObject({
      receipt_type: 'COOKIE_CONSENT',
      receipt_status: 'ALLOWED',
      country: 'GB',
      region: 'England',
      jurisdiction: 'UK_GDPR',
      meta: { widget_version: '1.0.0', consent_revision: 'rev-1', gpc: false },
      subject: body.subject,
      subject_auth: 'ANONYMOUS',
      subject_data: { categories: { necessary: true, functional: true, analytics: true, marketing: true } },
      property_id: domain.property_id,
      data_controller: {
        name: 'Shop GmbH',
        email: 'owner@example.com',
        url: `https://${domain.hostname}`,
        address: { id: domain.company_id, country: 'DE', address: 'Unter den Linden 1', postal_code: '10117' },
      },
    });
    expect(record.receipt_id).toMatch(/^RCPT_[A-Za-z0-9]{32}$/);
    expect(record.signature).toMatch(/^[\w-]+\.\.[\w-]+$/);
    expect(
      record.data_collection[0].purposes.map((x: { category: string; status: string }) => [x.category, x.status]),
    ).toEqual([
      ['necessary', 'GRANTED'],
      ['functional', 'GRANTED'],
      ['analytics', 'GRANTED'],
      ['marketing', 'GRANTED'],
    ]);
    const rows = await stored(domain.property_id);
    expect(rows.map((r) => r.id)).toEqual([record.receipt_id]);
    // The visitor's address is looked up, never kept.
    expect(JSON.stringify(rows)).not.toContain(LONDON);
  });

  it('when some or no optional category is granted, then the status is PARTIAL or DENIED; a GPC opt-out says so in meta', async () => {
    const p = c.partner();
    const domain = await c.domain(p.id);
    const origin = `https://${domain.hostname}`;
    const partial = await c.widget('POST', receiptsPath(domain.property_id), {
      origin,
      body: receipt({ categories: { functional: true, analytics: false, marketing: false } }),
    });
    const denied = await c.widget('POST', receiptsPath(domain.property_id), {
      origin,
      body: receipt({ categories: { functional: false, analytics: false, marketing: false }, gpc: true }),
    });
    expect([partial.status, partial.body.result.receipt_status]).toEqual([201, 'PARTIAL']);
    expect([denied.status, denied.body.result.receipt_status, denied.body.result.meta.gpc]).toEqual([
      201,
      'DENIED',
      true,
    ]);
    const age = await c.widget('POST', receiptsPath(domain.property_id), {
      origin,
      body: receipt({ receipt_type: 'AGE_CONFIRMATION', granted: true }),
    });
    expect([age.status, age.body.result.receipt_status]).toEqual([201, 'ALLOWED']);
  });

  it('when the visitor address is one the GeoIP database does not know (private, loopback), then country, region and jurisdiction are null', async () => {
    const p = c.partner();
    const domain = await c.domain(p.id);
    const origin = `https://${domain.hostname}`;
    for (const forwardedFor of ['10.1.2.3', undefined]) {
      const res = await c.widget('POST', receiptsPath(domain.property_id), { origin, forwardedFor, body: receipt() });
      expect(res.status).toBe(201);
      expect([res.body.result.country, res.body.result.region, res.body.result.jurisdiction]).toEqual([
        null,
        null,
        null,
      ]);
    }
  });

  it("when the Origin is a subdomain of the property's hostname (any port), then it is accepted; another host, a look-alike or no Origin is 403 and nothing is stored", async () => {
    const p = c.partner();
    const domain = await c.domain(p.id);
    const path = receiptsPath(domain.property_id);
    expect(
      (await c.widget('POST', path, { origin: `http://blog.${domain.hostname}:8443`, body: receipt() })).status,
    ).toBe(201);
    for (const origin of [
      'https://elsewhere.example.org',
      `https://${domain.hostname}.evil.test`,
      `https://x${domain.hostname}`,
      'null',
      undefined,
    ]) {
      const res = await c.widget('POST', path, { origin, body: receipt() });
      expect({
        origin,
        status: res.status,
        body: res.body,
        cors: res.headers.get('access-control-allow-origin'),
      }).toEqual({ origin, status: 403, body: envelope('WIDGET.ORIGIN_NOT_ALLOWED', 403), cors: null });
    }
    expect(await stored(domain.property_id)).toHaveLength(1);
  });

  it('when the property is unknown, then 404', async () => {
    const res = await c.widget('POST', receiptsPath('no-such-property'), {
      origin: 'https://shop.example.com',
      body: receipt(),
    });
    expect([res.status, res.body]).toEqual([404, envelope('RESOURCE.NOT_FOUND', 404)]);
  });

  it('when the same nonce comes again (a replay), then 400 RECEIPT.REPLAYED and only the first record is stored', async () => {
    const p = c.partner();
    const domain = await c.domain(p.id);
    const origin = `https://${domain.hostname}`;
    const nonce = token();
    const first = await c.widget('POST', receiptsPath(domain.property_id), { origin, body: receipt({ nonce }) });
    const again = await c.widget('POST', receiptsPath(domain.property_id), {
      origin,
      body: receipt({ nonce, categories: { functional: false, analytics: false, marketing: false } }),
    });
    expect(first.status).toBe(201);
    expect([again.status, again.body]).toEqual([400, envelope('RECEIPT.REPLAYED', 400)]);
    expect((await stored(domain.property_id)).map((r) => r.id)).toEqual([first.body.result.receipt_id]);
  });

  it('when the body is malformed (bad JSON, unknown type, short subject, no nonce) or oversized, then 400 or 413 naming the problem, and nothing is stored', async () => {
    const p = c.partner();
    const domain = await c.domain(p.id);
    const origin = `https://${domain.hostname}`;
    const path = receiptsPath(domain.property_id);
    expect((await c.widget('POST', path, { origin, body: '{"receipt_type":' })).body).toEqual(
      envelope('VALIDATION.MALFORMED_JSON', 400),
    );
    const bad = await c.widget('POST', path, {
      origin,
      body: receipt({ receipt_type: 'SOMETHING', subject: 'short', nonce: undefined }),
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.data.issues.map((i: { path: string }) => i.path).sort()).toEqual([
      'body.nonce',
      'body.receipt_type',
      'body.subject',
    ]);
    const huge = await c.widget('POST', path, {
      origin,
      body: receipt({ widget_version: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect([huge.status, huge.body]).toEqual([413, envelope('REQUEST.TOO_LARGE', 413)]);
    expect(await stored(domain.property_id)).toEqual([]);
  });
});
