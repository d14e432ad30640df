import { sharedSystem, envelope, type Partner, type System } from './support/system';

const createBody = (host: string, extra: Record<string, unknown> = {}) => ({
  domain: `https://${host}/landing`,
  company_name: `Company of ${host}`,
  account_email: `owner@${host}`,
  ...extra,
});

describe('domains and subdomains through the gateway', () => {
  let sys: System;
  let partner: Partner;
  const host = () => `shop-${Math.random().toString(36).slice(2, 10)}.example.com`;

  beforeAll(async () => {
    sys = await sharedSystem();
    partner = await sys.partner();
  });
  afterAll(() => sys?.close());

  it('when a domain is created, then it answers the create shape with status NEW, source API and the widget snippet', async () => {
    const h = host();
    const res = await sys.call(partner, 'POST', '/portal/domains', createBody(h.toUpperCase(), { has_dsar: false }));
    expect(res.status).toBe(200);
    const d = res.body.result;
    expect(d).toMatchObject({
      hostname: h,
      status: 'NEW',
      source: 'API',
      partner_id: partner.id,
      email: `owner@${h}`,
      has_scripts: true,
      has_dsar: false,
      has_docs: true,
      has_accessibility: true,
      display_company: true,
      display_dpo: true,
    });
    for (const field of [
      'id',
      'instance_property_id',
      'instance_company_id',
      'created_at',
      'updated_at',
      'privacy_widget',
      'privacy_center_link',
      'privacy_dnt_link',
    ]) {
      expect(typeof d[field]).toBe('string');
    }
    expect(d.privacy_widget).toContain(d.instance_property_id);
    expect(typeof d.is_active).toBe('boolean');
  });

  it('when a domain is read, then it carries every Domain field and its property with company, address and owner', async () => {
    const h = host();
    const created = (
      await sys.call(
        partner,
        'POST',
        '/portal/domains',
        createBody(h, { account_first_name: 'Ada', account_last_name: 'Lovelace', city: 'London', country: 'GB' }),
      )
    ).body.result;
    const res = await sys.call(partner, 'GET', `/portal/domains/${created.id}`);
    expect(res.status).toBe(200);
    const d = res.body.result;
    expect(d).toMatchObject({ id: created.id, hostname: h, status: 'NEW', partner_id: partner.id });
    for (const field of ['has_vendor_logo', 'is_active']) expect(typeof d[field]).toBe('boolean');
    for (const field of ['widget_version', 'instance_id', 'system_segment_id'])
      expect(Number.isInteger(d[field])).toBe(true);
    expect(d.instance).toEqual(
      expect.objectContaining({ id: expect.any(Number), name: expect.any(String), hostname: expect.any(String) }),
    );
    expect(Array.isArray(d.merchants)).toBe(true);
    expect(d.property).toMatchObject({
      id: created.instance_property_id,
      company: {
        id: created.instance_company_id,
        address: expect.objectContaining({ city: 'London', country: 'GB' }),
        owner: expect.objectContaining({ email: `owner@${h}`, first_name: 'Ada', last_name: 'Lovelace' }),
      },
    });
  });

  it('when domains are listed, then the newest come first with pagination meta and filters apply', async () => {
    const p = await sys.partner();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push(
        (await sys.call(p, 'POST', '/portal/domains', createBody(host(), { has_docs: i !== 1 }))).body.result.id,
      );
    const page1 = await sys.call(p, 'GET', '/portal/domains?limit=2');
    expect(page1.status).toBe(200);
    expect(page1.body.meta).toEqual({ current_page: 1, next_page: 2 });
    expect(page1.body.result.map((d: { id: string }) => d.id)).toEqual([ids[2], ids[1]]);
    const page2 = await sys.call(p, 'GET', '/portal/domains?limit=2&page=2');
    expect(page2.body.meta).toEqual({ current_page: 2, prev_page: 1 });
    expect(page2.body.result.map((d: { id: string }) => d.id)).toEqual([ids[0]]);
    const filtered = await sys.call(p, 'GET', '/portal/domains?has_docs=false');
    expect(filtered.body.result.map((d: { id: string }) => d.id)).toEqual([ids[1]]);
  });

  it('when list parameters are out of range or malformed, then 400 VALIDATION.INVALID lists each issue', async () => {
    for (const query of [
      'limit=101',
      'limit=0',
      'page=0',
      'page=abc',
      'is_active=maybe',
      'status=GONE',
      'created_at_start=yesterday',
    ]) {
      const res = await sys.call(partner, 'GET', `/portal/domains?${query}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(envelope('VALIDATION.INVALID', 400));
      expect(res.body.error.data.issues.length).toBeGreaterThan(0);
    }
  });

  it('when a subscription filter has a value outside its set, then 400 names it', async () => {
    for (const [query, field] of [
      ['subscription_status=GONE', 'query.subscription_status'],
      ['has_subscription=maybe', 'query.has_subscription'],
    ]) {
      const res = await sys.call(partner, 'GET', `/portal/domains?${query}`);
      expect(res.body).toEqual(envelope('VALIDATION.INVALID', 400));
      expect(res.body.error.data.issues).toEqual([expect.objectContaining({ path: field })]);
    }
  });

  it('when the create body is invalid, then 400 lists every issue and nothing is stored', async () => {
    const p = await sys.partner();
    const res = await sys.call(p, 'POST', '/portal/domains', {
      domain: 'localhost',
      account_email: 'not-an-email',
      subdomains: Array(101).fill('a'),
    });
    expect(res.status).toBe(400);
    const paths = res.body.error.data.issues.map((i: { path: string }) => i.path);
    expect(paths).toEqual(
      expect.arrayContaining(['body.domain', 'body.company_name', 'body.account_email', 'body.subdomains']),
    );
    expect((await sys.call(p, 'GET', '/portal/domains')).body.result).toEqual([]);
  });

  it('when the same hostname is created twice, then the second answers 409 DOMAIN.ALREADY_EXISTS', async () => {
    const h = host();
    expect((await sys.call(partner, 'POST', '/portal/domains', createBody(h))).status).toBe(200);
    const again = await sys.call(partner, 'POST', '/portal/domains', createBody(h));
    expect(again.status).toBe(409);
    expect(again.body).toEqual(envelope('DOMAIN.ALREADY_EXISTS', 409));
  });

  it('when a domain is updated, then the change is visible on the next read', async () => {
    const d = (await sys.call(partner, 'POST', '/portal/domains', createBody(host()))).body.result;
    const res = await sys.call(partner, 'PUT', `/portal/domains/${d.id}`, {
      company_trade_name: 'Trade Co',
      has_scripts: false,
      default_notice_type: 'FOOTER',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: expect.objectContaining({ id: d.id }) });
    const read = (await sys.call(partner, 'GET', `/portal/domains/${d.id}`)).body.result;
    expect(read).toMatchObject({ company_trade_name: 'Trade Co', has_scripts: false, default_notice_type: 'FOOTER' });
    const bad = await sys.call(partner, 'PUT', `/portal/domains/${d.id}`, { has_scripts: 'yes' });
    expect(bad.status).toBe(400);
  });

  it('when a NEW domain is invited, then it becomes INVITED and the owner receives the invitation', async () => {
    const h = host();
    const d = (await sys.call(partner, 'POST', '/portal/domains', createBody(h))).body.result;
    expect((await sys.call(partner, 'POST', `/portal/domains/${d.id}/invite`)).status).toBe(400);
    const res = await sys.call(partner, 'POST', `/portal/domains/${d.id}/invite`, { send_invite: true });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: {} });
    expect((await sys.call(partner, 'GET', `/portal/domains/${d.id}`)).body.result.status).toBe('INVITED');
    const mail = await sys.smtp.waitForMessage((m) => m.to.includes(`owner@${h}`), 10_000);
    expect(mail.raw).toContain(h);
  });

  it('when deactivate or activate does not fit the status, then 409 DOMAIN.INVALID_STATE', async () => {
    const d = (await sys.call(partner, 'POST', '/portal/domains', createBody(host()))).body.result;
    const deactivate = await sys.call(partner, 'POST', `/portal/domains/${d.id}/deactivate`);
    expect(deactivate.status).toBe(409);
    expect(deactivate.body).toEqual(envelope('DOMAIN.INVALID_STATE', 409));
    expect((await sys.call(partner, 'POST', `/portal/domains/${d.id}/activate`)).body).toEqual(
      envelope('DOMAIN.INVALID_STATE', 409),
    );
  });

  it('when subdomains are added by label and hostname, listed and deleted, then each answer has the contract shape', async () => {
    const h = host();
    const d = (await sys.call(partner, 'POST', '/portal/domains', createBody(h, { subdomains: [`blog.${h}`] }))).body
      .result;
    const byLabel = await sys.call(partner, 'POST', `/portal/domains/${d.id}/subdomains`, { subdomain: 'shop' });
    expect(byLabel.status).toBe(200);
    expect(byLabel.body.result).toMatchObject({ hostname: `shop.${h}`, domain_id: d.id });
    const dup = await sys.call(partner, 'POST', `/portal/domains/${d.id}/subdomains`, { subdomain: `shop.${h}` });
    expect(dup.status).toBe(409);
    expect(dup.body).toEqual(envelope('SUBDOMAIN.ALREADY_EXISTS', 409));
    const outside = await sys.call(partner, 'POST', `/portal/domains/${d.id}/subdomains`, {
      subdomain: 'shop.other.org',
    });
    expect(outside.status).toBe(400);
    const list = await sys.call(partner, 'GET', `/portal/domains/${d.id}/subdomains`);
    expect(list.body.result.map((s: { hostname: string }) => s.hostname).sort()).toEqual([`blog.${h}`, `shop.${h}`]);
    const del = await sys.call(partner, 'DELETE', `/portal/domains/${d.id}/subdomains/shop.${h}`);
    expect(del.status).toBe(200);
    expect(del.body.result).toMatchObject({ deleted: true, message: expect.any(String) });
    const delBody = await sys.call(partner, 'DELETE', `/portal/domains/${d.id}/subdomains`, { subdomain: 'blog' });
    expect(delBody.body.result).toMatchObject({ deleted: true });
    expect((await sys.call(partner, 'DELETE', `/portal/domains/${d.id}/subdomains/blog`)).status).toBe(404);
  });

  it('when a domain already has 100 subdomains, then another answers 409 SUBDOMAIN.LIMIT_REACHED', async () => {
    const h = host();
    const subdomains = Array.from({ length: 100 }, (_, i) => `s${i}.${h}`);
    const d = (await sys.call(partner, 'POST', '/portal/domains', createBody(h, { subdomains }))).body.result;
    expect((await sys.call(partner, 'GET', `/portal/domains/${d.id}/subdomains`)).body.result).toHaveLength(100);
    const extra = await sys.call(partner, 'POST', `/portal/domains/${d.id}/subdomains`, { subdomain: 'one-more' });
    expect(extra.body).toEqual(envelope('SUBDOMAIN.LIMIT_REACHED', 409));
  });

  it('when a domain is deleted, then it is gone and a second delete answers 404', async () => {
    const d = (await sys.call(partner, 'POST', '/portal/domains', createBody(host()))).body.result;
    const res = await sys.call(partner, 'DELETE', `/portal/domains/${d.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: { deleted: true } });
    expect((await sys.call(partner, 'GET', `/portal/domains/${d.id}`)).body).toEqual(
      envelope('RESOURCE.NOT_FOUND', 404),
    );
    expect((await sys.call(partner, 'DELETE', `/portal/domains/${d.id}`)).status).toBe(404);
  });

  it('when the product catalogue is read through the gateway, then billing-svc answers every product, and one by id or code; without products:read it is 403', async () => {
    const list = await sys.call(partner, 'GET', '/portal/products');
    expect(list.status).toBe(200);
    expect(list.body.result.map((p: { code: string }) => p.code)).toEqual(['FREE', 'PRO', 'ENTERPRISE', 'AUDIT']);
    expect((await sys.call(partner, 'GET', '/portal/products/ENTERPRISE')).body.result).toEqual(list.body.result[2]);
    expect((await sys.call(partner, 'GET', '/portal/products/3')).body.result.code).toBe('ENTERPRISE');
    expect((await sys.call(partner, 'GET', '/portal/products/GOLD')).body).toEqual(envelope('RESOURCE.NOT_FOUND', 404));
    const readOnly = await sys.partner(undefined, ['--permissions', 'domains:read']);
    expect((await sys.call(readOnly, 'GET', '/portal/products')).body).toEqual(envelope('AUTH.FORBIDDEN', 403));
  });
});
