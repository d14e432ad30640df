import { envelope, sharedSystem, type Partner, type System } from './support/system';

const host = () => `norm-${Math.random().toString(36).slice(2, 10)}.example.com`;
const createBody = (h: string, extra: Record<string, unknown> = {}) => ({
  domain: h,
  company_name: `Norm Co ${h}`,
  account_email: `owner@${h}`,
  ...extra,
});
const issuePaths = (body: { error: { data: { issues: { path: string }[] } } }) =>
  body.error.data.issues.map((i) => i.path);

describe('input normalisation: webhook URLs, subdomain names, deep pages', () => {
  let sys: System;
  let partner: Partner;

  beforeAll(async () => {
    sys = await sharedSystem();
    partner = await sys.partner();
  });
  afterAll(async () => {
    await sys?.close();
  });

  it('when a webhook URL is sent in a loose form, then create and update store and answer its normalised form', async () => {
    const created = await sys.call(partner, 'POST', '/portal/webhooks', { url: 'https:hooks.example.com' });
    expect(created.status).toBe(201);
    expect(created.body.result.url).toBe('https://hooks.example.com/');
    const id = created.body.result.id;
    const updated = await sys.call(partner, 'PUT', `/portal/webhooks/${id}`, {
      url: 'HTTPS://Hooks.Example.COM:443/a/../b',
    });
    expect(updated.status).toBe(200);
    expect(updated.body.result.url).toBe('https://hooks.example.com/b');
    expect((await sys.call(partner, 'GET', `/portal/webhooks/${id}`)).body.result.url).toBe(
      'https://hooks.example.com/b',
    );
  });

  it('when a webhook URL has a single-label host, port 0 or a refused service port, then create and update answer 400 naming body.url', async () => {
    const ep = (await sys.call(partner, 'POST', '/portal/webhooks', { url: 'https://hooks.example.com/kept' })).body
      .result;
    const refused = [
      'http://intranet/x',
      'https://intranet./x',
      'https://hooks.example.com:0/x',
      'https://hooks.example.com:22/x',
      'http://hooks.example.com:25/x',
      'https://hooks.example.com:5432/x',
    ];
    for (const url of refused) {
      const created = await sys.call(partner, 'POST', '/portal/webhooks', { url });
      expect({ url, status: created.status }).toEqual({ url, status: 400 });
      expect(created.body).toEqual(envelope('VALIDATION.INVALID', 400));
      expect(issuePaths(created.body)).toEqual(['body.url']);
      const updated = await sys.call(partner, 'PUT', `/portal/webhooks/${ep.id}`, { url });
      expect({ url, status: updated.status, paths: issuePaths(updated.body) }).toEqual({
        url,
        status: 400,
        paths: ['body.url'],
      });
    }
    for (const url of [
      'https://hooks.example.com:8443/x',
      'http://hooks.example.com:8080/x',
      'http://127.0.0.1:8080/x',
    ]) {
      const ok = await sys.call(partner, 'POST', '/portal/webhooks', { url });
      expect({ url, status: ok.status }).toEqual({ url, status: 201 });
    }
  });

  it('when a subdomain is deleted by its name with a trailing dot, then it is the same name create stored', async () => {
    const h = host();
    const d = (
      await sys.call(partner, 'POST', '/portal/domains', createBody(h, { subdomains: [`blog.${h}.`, `shop.${h}`] }))
    ).body.result;
    const del = await sys.call(partner, 'DELETE', `/portal/domains/${d.id}/subdomains/blog.${h}.`);
    expect(del.status).toBe(200);
    expect(del.body.result).toMatchObject({ deleted: true });
    const upper = await sys.call(partner, 'DELETE', `/portal/domains/${d.id}/subdomains/SHOP.${h.toUpperCase()}.`);
    expect(upper.status).toBe(200);
    for (const name of [`news.${h}.`, `docs.${h}..`, 'help.']) {
      expect((await sys.call(partner, 'POST', `/portal/domains/${d.id}/subdomains`, { subdomain: name })).status).toBe(
        200,
      );
    }
    for (const name of [`news.${h}.`, `docs.${h}..`, 'help.']) {
      const res = await sys.call(partner, 'DELETE', `/portal/domains/${d.id}/subdomains/${name}`);
      expect({ name, status: res.status }).toEqual({ name, status: 200 });
    }
    expect((await sys.call(partner, 'GET', `/portal/domains/${d.id}/subdomains`)).body.result).toEqual([]);
  });

  it('when a page is far past the depth cap, then the 400 names query.page and says the cap, not "must be an integer"', async () => {
    for (const path of [
      '/portal/domains?page=1000000000',
      '/portal/webhooks?page=99999999999999999999',
      '/portal/merchants?page=1000000000',
    ]) {
      const res = await sys.call(partner, 'GET', path);
      expect({ path, status: res.status }).toEqual({ path, status: 400 });
      expect(res.body).toEqual(envelope('VALIDATION.INVALID', 400));
      const issue = res.body.error.data.issues.find((i: { path: string }) => i.path === 'query.page');
      expect(issue.message).toMatch(/100000/);
      expect(issue.message).not.toMatch(/integer/);
    }
    const notInt = await sys.call(partner, 'GET', '/portal/domains?page=1.5');
    expect(notInt.body.error.data.issues).toEqual([
      expect.objectContaining({ path: 'query.page', message: 'must be an integer' }),
    ]);
  });
});
