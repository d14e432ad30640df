import type { WidgetSettings } from '@platform/contracts';
import { startDomainsSvc, type Harness, type TestPartner, createTestDomain } from './support/harness';

const COMPANY_DETAILS = {
  company_trade_name: 'Trade Co',
  phone_number: '+49 30 1234567',
  country: 'DE',
  city: 'Berlin',
  address: 'Hauptstr. 1',
  postal_code: '10115',
};

describe('the widget public routes: what settings reveal and which page views count', () => {
  let h: Harness;
  let p: TestPartner;
  beforeAll(async () => {
    h = await startDomainsSvc();
    p = h.partner();
  });
  afterAll(() => h?.close());

  const createDomain = (extra: Record<string, unknown> = {}) =>
    createTestDomain(h, p, { ...COMPANY_DETAILS, ...extra });
  const companyOf = async (d: { propertyId: string; host: string }) => {
    const res = await h.visit(`https://${d.host}`, 'GET', `/widget/v1/properties/${d.propertyId}/settings`);
    expect(res.status).toBe(200);
    return (res.body.result as WidgetSettings).company;
  };
  const view = (d: { propertyId: string; host: string }, body: unknown) =>
    h.visit(`https://${d.host}`, 'POST', `/widget/v1/properties/${d.propertyId}/views`, body);
  const statusOf = async (id: string) => (await h.call(p, 'GET', `/portal/domains/${id}`)).body.result.status;

  it("when settings are read, then they carry the hostname's registrable domain and the max age, which the instance property sets", async () => {
    const d = await createDomain();
    const settings = async () =>
      (await h.visit(`https://${d.host}`, 'GET', `/widget/v1/properties/${d.propertyId}/settings`)).body
        .result as WidgetSettings;
    expect(await settings()).toMatchObject({ cookie_domain: 'example.com', consent_max_age_days: 365 });
    const put = (days: unknown) =>
      h.call(p, 'PUT', `/portal/instance/property?domain_id=${d.id}`, { consent_max_age_days: days });
    expect((await put(0)).status).toBe(400);
    expect((await put(731)).status).toBe(400);
    const res = await put(30);
    expect(res.status).toBe(200);
    expect(res.body.result.consent_max_age_days).toBe(30);
    expect((await h.call(p, 'GET', `/portal/instance/property?domain_id=${d.id}`)).body.result).toMatchObject({
      consent_max_age_days: 30,
    });
    expect((await settings()).consent_max_age_days).toBe(30);
  });

  it('when display_company is true, then the settings carry every company detail the company tab shows', async () => {
    const d = await createDomain();
    expect(await companyOf(d)).toEqual({
      name: `Company of ${d.host}`,
      trade_name: 'Trade Co',
      email: `owner@${d.host}`,
      address: {
        country: 'DE',
        state: null,
        city: 'Berlin',
        address: 'Hauptstr. 1',
        address_2: null,
        postal_code: '10115',
      },
      phone_number: '+49 30 1234567',
    });
  });

  it('when display_company is false but has_docs is true, then the phone (shown only on the company tab) is null', async () => {
    const d = await createDomain({ display_company: false });
    expect(await companyOf(d)).toEqual({
      name: `Company of ${d.host}`,
      trade_name: 'Trade Co',
      email: `owner@${d.host}`,
      address: {
        country: 'DE',
        state: null,
        city: 'Berlin',
        address: 'Hauptstr. 1',
        address_2: null,
        postal_code: '10115',
      },
      phone_number: null,
    });
  });

  it('when display_company and has_docs are false, then only the company name is left: e-mail, address and phone are null', async () => {
    const d = await createDomain({ display_company: false, has_docs: false });
    expect(await companyOf(d)).toEqual({
      name: `Company of ${d.host}`,
      trade_name: null,
      email: null,
      address: { country: null, state: null, city: null, address: null, address_2: null, postal_code: null },
      phone_number: null,
    });
  });

  it("when a view's url is not an http(s) URL on the property's hostname or a subdomain, then 400 VALIDATION.INVALID and the domain stays NEW", async () => {
    const d = await createDomain();
    for (const body of [
      { url: 'https://evil.net/x' },
      { url: 'javascript:alert(1)' },
      { url: `https://${d.host}.evil.net/` },
      { url: `ftp://${d.host}/` },
      {},
      undefined,
    ]) {
      const res = await view(d, body);
      expect({ body, status: res.status, code: res.body?.error?.code }).toEqual({
        body,
        status: 400,
        code: 'VALIDATION.INVALID',
      });
    }
    expect(await statusOf(d.id)).toBe('NEW');
  });

  it("when a view's url is a page on a subdomain of the property's hostname, then 202 and the domain turns ACTIVE", async () => {
    const d = await createDomain();
    const res = await view(d, { url: `http://www.${d.host}:8080/page?x=1` });
    expect(res.status).toBe(202);
    expect(await statusOf(d.id)).toBe('ACTIVE');
  });
});
