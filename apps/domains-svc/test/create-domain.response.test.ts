import { domainCreatedSchema, domainDetailSchema } from '@platform/contracts';
import { createBody, startDomainsSvc, uniqueHost, WIDGET_BASE_URL, type Harness } from './support/harness';

describe('create domain: response', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startDomainsSvc();
  });
  afterAll(() => h?.close());

  it('when a URL with upper case is sent, then it answers 200 with the create shape, normalised hostname and defaults', async () => {
    const p = h.partner();
    const host = uniqueHost();
    const res = await h.call(p, 'POST', '/portal/domains', createBody(host.toUpperCase()));
    expect(res.status).toBe(200);
    const d = res.body.result;
    expect(domainCreatedSchema.strict().parse(d)).toEqual(d);
    expect(d).toMatchObject({
      hostname: host,
      status: 'NEW',
      source: 'API',
      partner_id: p.id,
      is_active: true,
      email: `owner@${host}`,
      company_trade_name: `Company of ${host.toUpperCase()}`,
      company_id_number: '',
      has_scripts: true,
      has_dsar: true,
      has_docs: true,
      has_accessibility: true,
      display_company: true,
      display_dpo: true,
      default_notice_type: 'CLASSIC',
    });
    expect(d.privacy_widget).toBe(
      `<script src="${WIDGET_BASE_URL}/widget/v1/${d.instance_property_id}/loader.js"></script>`,
    );
    expect(d.privacy_center_link).toContain('PrivacyWidget.open()');
    expect(d.privacy_dnt_link).toContain("open('dsar')");
    expect(Date.parse(d.created_at)).not.toBeNaN();
  });

  it('when the domain is read, then every Domain field is there with property, company, address, owner and subscription', async () => {
    const p = h.partner();
    const host = uniqueHost();
    const body = createBody(host, {
      account_first_name: 'Ada',
      account_last_name: 'Lovelace',
      phone_number: '+44 20 1234',
      city: 'London',
      country: 'gb',
      address: '1 Main St',
      postal_code: 'N1',
      company_trade_name: 'Ada Shop',
      company_id_number: 'ID-1',
      merchant_id: 'm-1',
      product: 'PRO',
      price_list: 'PARTNER',
      has_docs: false,
      default_notice_type: 'FOOTER',
    });
    const created = (await h.call(p, 'POST', '/portal/domains', body)).body.result;
    const res = await h.call(p, 'GET', `/portal/domains/${created.id}`);
    expect(res.status).toBe(200);
    const d = res.body.result;
    expect(domainDetailSchema.parse(d)).toBeTruthy();
    expect(d).toMatchObject({
      ...created,
      activated_at: null,
      has_vendor_logo: true,
      widget_version: 1,
      instance_id: 7,
      system_segment_id: 1,
      merchants: ['m-1'],
      instance: { id: 7, name: 'test-instance', hostname: 'instance.test' },
      has_docs: false,
      default_notice_type: 'FOOTER',
      company_trade_name: 'Ada Shop',
      company_id_number: 'ID-1',
    });
    expect(d.property).toEqual({
      id: created.instance_property_id,
      name: host,
      company: {
        id: created.instance_company_id,
        name: `Company of ${host}`,
        email: `owner@${host}`,
        address: {
          country: 'GB',
          city: 'London',
          address: '1 Main St',
          postal_code: 'N1',
          phone_number: '+44 20 1234',
        },
        owner: { id: expect.any(String), email: `owner@${host}`, first_name: 'Ada', last_name: 'Lovelace' },
      },
    });
    expect(d.subscription).toMatchObject({
      status: 'ACTIVE',
      end_date: null,
      price: { price_list: { code: 'PARTNER', id: 2 }, product: { id: 2, name: 'Privacy Pro', type: 'SUBSCRIPTION' } },
    });
  });

  it('when company_setup is false, then the company with the same name is reused; when true, a new one is created', async () => {
    const p = h.partner();
    const shared = { company_name: 'Shared Co' };
    const a = (await h.call(p, 'POST', '/portal/domains', createBody(uniqueHost(), shared))).body.result;
    const b = (await h.call(p, 'POST', '/portal/domains', createBody(uniqueHost(), shared))).body.result;
    const c = (await h.call(p, 'POST', '/portal/domains', createBody(uniqueHost(), { ...shared, company_setup: true })))
      .body.result;
    expect(b.instance_company_id).toBe(a.instance_company_id);
    expect(c.instance_company_id).not.toBe(a.instance_company_id);
    // Another partner never shares a company.
    const other = (await h.call(h.partner(), 'POST', '/portal/domains', createBody(uniqueHost(), shared))).body.result;
    expect(other.instance_company_id).not.toBe(a.instance_company_id);
  });

  it('when subdomains are given as labels and hostnames, then they are stored as full hostnames', async () => {
    const p = h.partner();
    const host = uniqueHost();
    const d = (
      await h.call(p, 'POST', '/portal/domains', createBody(host, { subdomains: ['blog', `shop.${host}`, 'BLOG'] }))
    ).body.result;
    const list = await h.call(p, 'GET', `/portal/domains/${d.id}/subdomains`);
    expect(list.body.result.map((s: { hostname: string }) => s.hostname).sort()).toEqual([
      `blog.${host}`,
      `shop.${host}`,
    ]);
  });

  it('when action is SCAN_INVITE, then the domain starts NEW (it is invited once its scan ends)', async () => {
    const p = h.partner();
    const d = (await h.call(p, 'POST', '/portal/domains', createBody(uniqueHost(), { action: 'SCAN_INVITE' }))).body
      .result;
    expect(d.status).toBe('NEW');
  });

  it('when two domains with the same company_name are created at the same moment without company_setup, then both share one company', async () => {
    const p = h.partner();
    const name = `Race Ltd ${uniqueHost()}`;
    const [a, b] = await Promise.all(
      [0, 1].map(() => h.call(p, 'POST', '/portal/domains', createBody(uniqueHost(), { company_name: name }))),
    );
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.result.instance_company_id).toBe(b.body.result.instance_company_id);
  });
});
