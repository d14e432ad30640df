import { subdomainSchema } from '@platform/contracts';
import { createBody, envelope, startDomainsSvc, uniqueHost, type Harness } from './support/harness';

describe('subdomains', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startDomainsSvc();
  });
  afterAll(() => h?.close());

  it('when subdomains are added by label and hostname, listed and deleted in every way, then each answer has the contract shape', async () => {
    const p = h.partner();
    const host = uniqueHost();
    const d = (await h.call(p, 'POST', '/portal/domains', createBody(host, { subdomains: [`blog.${host}`] }))).body
      .result;

    const byLabel = await h.call(p, 'POST', `/portal/domains/${d.id}/subdomains`, { subdomain: 'Shop' });
    expect(byLabel.status).toBe(200);
    expect(subdomainSchema.strict().parse(byLabel.body.result)).toMatchObject({
      hostname: `shop.${host}`,
      domain_id: d.id,
      instance_domain_id: d.id,
      instance_id: '7',
    });
    const byHost = await h.call(p, 'POST', `/portal/domains/${d.id}/subdomains`, {
      subdomain: `https://api.${host}/x`,
    });
    expect(byHost.body.result.hostname).toBe(`api.${host}`);

    expect((await h.call(p, 'POST', `/portal/domains/${d.id}/subdomains`, { subdomain: `shop.${host}` })).body).toEqual(
      envelope('SUBDOMAIN.ALREADY_EXISTS', 409),
    );
    for (const bad of ['shop.other.org', host, 'a b', '']) {
      const res = await h.call(p, 'POST', `/portal/domains/${d.id}/subdomains`, { subdomain: bad });
      expect(res.body).toEqual(envelope('VALIDATION.INVALID', 400));
    }
    expect((await h.call(p, 'POST', `/portal/domains/${d.id}/subdomains`, {})).status).toBe(400);

    const list = await h.call(p, 'GET', `/portal/domains/${d.id}/subdomains`);
    expect(list.body.result.map((s: { hostname: string }) => s.hostname).sort()).toEqual([
      `api.${host}`,
      `blog.${host}`,
      `shop.${host}`,
    ]);

    const byPath = await h.call(p, 'DELETE', `/portal/domains/${d.id}/subdomains/shop.${host}`);
    expect(byPath.body).toEqual({ result: { deleted: true, message: expect.stringContaining(`shop.${host}`) } });
    expect(
      (await h.call(p, 'DELETE', `/portal/domains/${d.id}/subdomains`, { subdomain: 'blog' })).body.result,
    ).toMatchObject({ deleted: true });
    expect(
      (await h.call(p, 'DELETE', `/portal/domains/${d.id}/subdomains/${byHost.body.result.id}`)).body.result.deleted,
    ).toBe(true);
    expect((await h.call(p, 'DELETE', `/portal/domains/${d.id}/subdomains/blog`)).body).toEqual(
      envelope('RESOURCE.NOT_FOUND', 404),
    );
    expect((await h.call(p, 'GET', `/portal/domains/${d.id}/subdomains`)).body).toEqual({ result: [] });
  });

  it('when a domain already has 100 subdomains, then another is refused with 409 SUBDOMAIN.LIMIT_REACHED', async () => {
    const p = h.partner();
    const host = uniqueHost();
    const labels = Array.from({ length: 100 }, (_, i) => `s${i}`);
    const d = (await h.call(p, 'POST', '/portal/domains', createBody(host, { subdomains: labels }))).body.result;
    expect((await h.call(p, 'GET', `/portal/domains/${d.id}/subdomains`)).body.result).toHaveLength(100);
    expect((await h.call(p, 'POST', `/portal/domains/${d.id}/subdomains`, { subdomain: 'one-more' })).body).toEqual(
      envelope('SUBDOMAIN.LIMIT_REACHED', 409),
    );
  });
});
