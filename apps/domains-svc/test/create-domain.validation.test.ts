import { createBody, envelope, startDomainsSvc, uniqueHost, type Harness } from './support/harness';

const pathsOf = (body: { error: { data: { issues: { path: string }[] } } }) =>
  body.error.data.issues.map((i) => i.path);

describe('create domain: validation', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startDomainsSvc();
  });
  afterAll(() => h?.close());

  it.each([
    '127.0.0.1',
    'http://10.0.0.1/x',
    '[::1]',
    'localhost',
    'app.localhost',
    'intranet',
    'bad_host.example.com',
    '-x.example.com',
    'exa mple.com',
    '',
  ])('when domain is %p, then 400 VALIDATION.INVALID on body.domain', async (domain) => {
    const res = await h.call(h.partner(), 'POST', '/portal/domains', createBody('x.example.com', { domain }));
    expect(res.status).toBe(400);
    expect(res.body).toEqual(envelope('VALIDATION.INVALID', 400));
    expect(pathsOf(res.body)).toContain('body.domain');
  });

  it('when several fields are wrong, then every problem is listed in data.issues and nothing is written', async () => {
    const p = h.partner();
    const res = await h.call(p, 'POST', '/portal/domains', {
      domain: 'localhost',
      account_email: 'not-an-email',
      country: 'XX',
      primary_color: 'blue',
      merchant_id: 'm'.repeat(205),
      has_scripts: 'yes',
      default_notice_type: 'POPUP',
      action: 'NOPE',
      subdomains: Array(101).fill('a'),
    });
    expect(res.status).toBe(400);
    expect(pathsOf(res.body)).toEqual(
      expect.arrayContaining([
        'body.domain',
        'body.company_name',
        'body.account_email',
        'body.country',
        'body.primary_color',
        'body.merchant_id',
        'body.has_scripts',
        'body.default_notice_type',
        'body.action',
        'body.subdomains',
      ]),
    );
    expect(await h.outbox(p.id)).toEqual([]);
    expect((await h.call(p, 'GET', '/portal/domains')).body.result).toEqual([]);
  });

  it('when a subdomain lies outside the domain, then 400 names its index', async () => {
    const host = uniqueHost();
    const res = await h.call(
      h.partner(),
      'POST',
      '/portal/domains',
      createBody(host, { subdomains: ['ok', 'shop.other.org'] }),
    );
    expect(res.status).toBe(400);
    expect(pathsOf(res.body)).toEqual(['body.subdomains.1']);
  });

  it('when the product or price list code is unknown, then 400 names the field', async () => {
    const p = h.partner();
    const product = await h.call(p, 'POST', '/portal/domains', createBody(uniqueHost(), { product: 'GOLD' }));
    expect(product.status).toBe(400);
    expect(pathsOf(product.body)).toEqual(['body.product']);
    const list = await h.call(
      p,
      'POST',
      '/portal/domains',
      createBody(uniqueHost(), { product: 'PRO', price_list: 'VIP' }),
    );
    expect(list.status).toBe(400);
    expect(pathsOf(list.body)).toEqual(['body.price_list']);
    expect(await h.outbox(p.id)).toEqual([]);
  });

  it("when the partner's onboarding settings require names and phone, then a create without them is 400 listing each", async () => {
    const p = h.partner(['account_first_name', 'account_last_name', 'phone_number']);
    const res = await h.call(p, 'POST', '/portal/domains', createBody(uniqueHost(), { account_first_name: 'Ada' }));
    expect(res.status).toBe(400);
    expect(pathsOf(res.body).sort()).toEqual(['body.account_last_name', 'body.phone_number']);
    const ok = await h.call(
      p,
      'POST',
      '/portal/domains',
      createBody(uniqueHost(), { account_first_name: 'Ada', account_last_name: 'L', phone_number: '1' }),
    );
    expect(ok.status).toBe(200);
  });

  it('when the same hostname is created twice by a partner, then 409 DOMAIN.ALREADY_EXISTS and one domain.created only; another partner may use it', async () => {
    const p = h.partner();
    const host = uniqueHost();
    expect((await h.call(p, 'POST', '/portal/domains', createBody(host))).status).toBe(200);
    const again = await h.call(p, 'POST', '/portal/domains', {
      ...createBody(host),
      domain: `HTTP://${host.toUpperCase()}/other`,
    });
    expect(again.status).toBe(409);
    expect(again.body).toEqual(envelope('DOMAIN.ALREADY_EXISTS', 409));
    expect(await h.outbox(p.id, 'domain.created')).toHaveLength(1);
    expect((await h.call(h.partner(), 'POST', '/portal/domains', createBody(host))).status).toBe(200);
  });

  it('when the body is not JSON or not an object, then 400 with the envelope', async () => {
    const malformed = await h.call(h.partner(), 'POST', '/portal/domains', '{"domain":');
    expect(malformed.body).toEqual(envelope('VALIDATION.MALFORMED_JSON', 400));
    const array = await h.call(h.partner(), 'POST', '/portal/domains', '[1,2]');
    expect(array.body).toEqual(envelope('VALIDATION.INVALID', 400));
  });
});
