import { sharedSystem, envelope, type Partner, type System } from './support/system';

describe('tenant isolation', () => {
  let sys: System;
  let owner: Partner;
  let other: Partner;
  let domainId: string;
  let hostname: string;

  beforeAll(async () => {
    sys = await sharedSystem();
    owner = await sys.partner();
    other = await sys.partner();
    hostname = `isolated-${Date.now()}.example.com`;
    const created = await sys.call(owner, 'POST', '/portal/domains', {
      domain: hostname,
      company_name: 'Owner Co',
      account_email: 'owner@example.com',
      subdomains: [`blog.${hostname}`],
    });
    domainId = created.body.result.id;
  });
  afterAll(() => sys?.close());

  it("when another partner uses the first partner's ids on every route, then each answers 404 RESOURCE.NOT_FOUND and nothing changes", async () => {
    const routes: [string, string, unknown?][] = [
      ['GET', `/portal/domains/${domainId}`],
      ['PUT', `/portal/domains/${domainId}`, { company_trade_name: 'Hijacked' }],
      ['POST', `/portal/domains/${domainId}/deactivate`],
      ['POST', `/portal/domains/${domainId}/activate`],
      ['POST', `/portal/domains/${domainId}/invite`, { send_intro: false }],
      ['GET', `/portal/domains/${domainId}/subdomains`],
      ['POST', `/portal/domains/${domainId}/subdomains`, { subdomain: 'evil' }],
      ['DELETE', `/portal/domains/${domainId}/subdomains/blog.${hostname}`],
      ['DELETE', `/portal/domains/${domainId}/subdomains`, { subdomain: 'blog' }],
      ['DELETE', `/portal/domains/${domainId}`],
    ];
    for (const [method, path, body] of routes) {
      const res = await sys.call(other, method, path, body);
      expect({ route: `${method} ${path}`, status: res.status, body: res.body }).toEqual({
        route: `${method} ${path}`,
        status: 404,
        body: envelope('RESOURCE.NOT_FOUND', 404),
      });
    }
    const mine = await sys.call(owner, 'GET', `/portal/domains/${domainId}`);
    expect(mine.body.result).toMatchObject({ status: 'NEW', hostname });
    expect(mine.body.result.company_trade_name ?? null).not.toBe('Hijacked');
    const subs = await sys.call(owner, 'GET', `/portal/domains/${domainId}/subdomains`);
    expect(subs.body.result.map((s: { hostname: string }) => s.hostname)).toEqual([`blog.${hostname}`]);
  });

  it("when another partner lists or searches, then the first partner's domain never appears", async () => {
    for (const query of ['', `?search=${hostname}`, `?id=${domainId}`, '?limit=100', `?status=NEW`]) {
      const res = await sys.call(other, 'GET', `/portal/domains${query}`);
      expect(res.status).toBe(200);
      expect(res.body.result.map((d: { id: string }) => d.id)).not.toContain(domainId);
    }
    const own = await sys.call(owner, 'GET', `/portal/domains?search=${hostname}`);
    expect(own.body.result.map((d: { id: string }) => d.id)).toEqual([domainId]);
  });

  it('when another partner registers the same hostname, then it is its own domain, not a conflict', async () => {
    const res = await sys.call(other, 'POST', '/portal/domains', {
      domain: hostname,
      company_name: 'Other Co',
      account_email: 'x@example.org',
    });
    expect(res.status).toBe(200);
    expect(res.body.result.id).not.toBe(domainId);
  });
});
