import {
  domainChangedEventSchema,
  instanceCompanySchema,
  instancePropertySchema,
  PERMISSIONS,
  propertyUpdatedEventSchema,
} from '@platform/contracts';
import { act } from '@platform/testing';
import { createBody, envelope, startDomainsSvc, uniqueHost, type Harness, type TestPartner } from './support/harness';

describe('instance endpoints: the company and property of a domain or merchant', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startDomainsSvc();
  });
  afterAll(() => h?.close());

  const create = async (p: TestPartner, extra: Record<string, unknown> = {}) => {
    const host = uniqueHost();
    const d = (await h.call(p, 'POST', '/portal/domains', createBody(host, extra))).body.result;
    return {
      id: d.id as string,
      propertyId: d.instance_property_id as string,
      companyId: d.instance_company_id as string,
      host,
    };
  };
  const settings = async (d: { host: string; propertyId: string }) =>
    (await h.visit(`https://${d.host}`, 'GET', `/widget/v1/properties/${d.propertyId}/settings`)).body.result;

  it('when the company is read by domain_id, then it answers the spec Company', async () => {
    const p = h.partner();
    const d = await create(p, { country: 'de', city: 'Berlin', phone_number: '+49 30 1', account_first_name: 'Ada' });
    const res = await h.call(p, 'GET', `/portal/instance/company?domain_id=${d.id}`);
    expect(res.status).toBe(200);
    const company = instanceCompanySchema.strict().parse(res.body.result);
    expect(company).toEqual({
      id: d.companyId,
      name: `Company of ${d.host}`,
      email: `owner@${d.host}`,
      address: { country: 'DE', city: 'Berlin', address: '', postal_code: '', phone_number: '+49 30 1' },
      owner: { id: expect.any(String), email: `owner@${d.host}`, first_name: 'Ada', last_name: '' },
      dpo: null,
    });
  });

  it('when the company is updated, then the answer, the domain read and domain.changed show it; no property.updated', async () => {
    const p = h.partner();
    const d = await create(p);
    const res = await h.call(p, 'PUT', `/portal/instance/company?domain_id=${d.id}`, {
      name: 'Renamed GmbH',
      email: 'Legal@Example.org',
      address: { country: 'at', postal_code: '1010' },
      owner: { last_name: 'Lovelace' },
    });
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({
      name: 'Renamed GmbH',
      email: 'legal@example.org',
      address: { country: 'AT', postal_code: '1010', city: '' },
      owner: { last_name: 'Lovelace', email: `owner@${d.host}` },
    });
    const read = (await h.call(p, 'GET', `/portal/domains/${d.id}`)).body.result;
    // The domain's company is the spec's Company: all but the DPO.
    const { dpo, ...specCompany } = res.body.result;
    expect([dpo, read.property.company]).toEqual([null, specCompany]);
    const changed = (await h.outbox(p.id, 'domain.changed')).map(
      (r) => domainChangedEventSchema.parse(r.message.payload).params,
    );
    expect(changed.map((c) => [c.change, c.domain.company_name])).toEqual([
      ['created', `Company of ${d.host}`],
      ['updated', 'Renamed GmbH'],
    ]);
    expect(await h.outbox(p.id, 'property.updated')).toEqual([]);
    // The same values again change nothing: no event.
    expect(
      (await h.call(p, 'PUT', `/portal/instance/company?domain_id=${d.id}`, { name: 'Renamed GmbH' })).status,
    ).toBe(200);
    expect(await h.outbox(p.id, 'domain.changed')).toHaveLength(2);
  });

  it('when a shared company changes, then every domain of it gets domain.changed', async () => {
    const p = h.partner();
    const a = await create(p, { company_name: 'Shared Co' });
    const b = await create(p, { company_name: 'Shared Co' });
    expect(b.companyId).toBe(a.companyId);
    await h.call(p, 'PUT', `/portal/instance/company?domain_id=${a.id}`, { address: { city: 'Graz' } });
    const updated = (await h.outbox(p.id, 'domain.changed'))
      .map((r) => domainChangedEventSchema.parse(r.message.payload).params)
      .filter((c) => c.change === 'updated');
    expect(updated.map((c) => [c.domain.id, c.domain.company?.city]).sort()).toEqual(
      [
        [a.id, 'Graz'],
        [b.id, 'Graz'],
      ].sort(),
    );
  });

  it('when the property is read, then it answers the shape of property.updated data', async () => {
    const p = h.partner();
    const d = await create(p, { has_dsar: false });
    const res = await h.call(p, 'GET', `/portal/instance/property?domain_id=${d.id}`);
    expect(res.status).toBe(200);
    expect(instancePropertySchema.strict().parse(res.body.result)).toMatchObject({
      id: d.propertyId,
      name: d.host,
      company_id: d.companyId,
      has_dsar: false,
      widget_position: 'BOTTOM_LEFT',
      has_accessibility_icon: true,
      has_welcome_message: false,
      has_continuous_scanning: false,
      activated_at: null,
    });
  });

  it('when the property changes, then property.updated lists only the changed fields and the widget shows the new look', async () => {
    const p = h.partner();
    const d = await create(p);
    const before = (await h.call(p, 'GET', `/portal/instance/property?domain_id=${d.id}`)).body.result;
    const res = await h.call(p, 'PUT', `/portal/instance/property?domain_id=${d.id}`, {
      primary_color: '#0A7A3B',
      text_color: '111111',
      widget_position: 'BOTTOM_RIGHT',
      widget_font: 'Roboto, sans-serif',
      border_radius: 12,
      has_welcome_message: true,
      has_continuous_scanning: true,
      has_accessibility_icon: before.has_accessibility_icon,
      description: 'Main shop',
    });
    expect(res.status).toBe(200);
    const expected = {
      primary_color: '#0a7a3b',
      text_color: '#111111',
      widget_position: 'BOTTOM_RIGHT',
      widget_font: 'Roboto, sans-serif',
      border_radius: '12px',
      has_welcome_message: true,
      has_continuous_scanning: true,
      description: 'Main shop',
    };
    expect(res.body.result).toEqual({ ...before, ...expected });
    const events = (await h.outbox(p.id, 'property.updated')).map((r) =>
      propertyUpdatedEventSchema.parse(r.message.payload),
    );
    expect(events).toHaveLength(1);
    expect(events[0].params).toEqual({ property_id: d.propertyId, ...expected });
    // The event's data is the spec's property: the answer adds how long a choice stands, the widget's
    // language and texts, the regime and Consent Mode's switches.
    expect(res.body.result).toEqual({
      ...events[0].entity.data,
      consent_max_age_days: 365,
      default_language: 'en',
      text_overrides: {},
      regime: 'AUTO',
      ads_data_redaction: true,
      url_passthrough: false,
    });
    // The widget's next view shows the new colours, font, radius and side.
    expect(await settings(d)).toMatchObject({
      primary_color: '#0a7a3b',
      text_color: '#111111',
      widget_position: 'BOTTOM_RIGHT',
      widget_font: 'Roboto, sans-serif',
      border_radius: '12px',
    });
    // An unchanged PUT emits nothing.
    const again = await h.call(p, 'PUT', `/portal/instance/property?domain_id=${d.id}`, expected);
    expect(again.body.result).toEqual(res.body.result);
    expect(await h.outbox(p.id, 'property.updated')).toHaveLength(1);
  });

  it('when a merchant names one domain, then merchant_id finds it; several domains answer 409 MERCHANT.AMBIGUOUS', async () => {
    const p = h.partner();
    const d = await create(p, { merchant_id: 'm-one' });
    const one = await h.call(p, 'GET', '/portal/instance/property?merchant_id=m-one');
    expect([one.status, one.body.result?.id]).toEqual([200, d.propertyId]);
    const put = await h.call(p, 'PUT', '/portal/instance/property?merchant_id=m-one', { primary_color: '#123456' });
    expect([put.status, put.body.result?.primary_color]).toEqual([200, '#123456']);
    const e = await create(p, { merchant_id: 'm-two' });
    const f = await create(p, { merchant_id: 'm-two' });
    const res = await h.call(p, 'GET', '/portal/instance/company?merchant_id=m-two');
    expect(res.status).toBe(409);
    expect(res.body).toEqual(envelope('MERCHANT.AMBIGUOUS', 409));
    expect(res.body.error.data.domain_ids.sort()).toEqual([e.id, f.id].sort());
    const unknown = await h.call(p, 'GET', '/portal/instance/company?merchant_id=nobody');
    expect([unknown.status, unknown.body]).toEqual([404, envelope('RESOURCE.NOT_FOUND', 404)]);
  });

  it("when another partner's domain or merchant is named, then 404 and nothing changes", async () => {
    const owner = h.partner();
    const other = h.partner();
    const d = await create(owner, { merchant_id: 'shared-name' });
    for (const [method, path, body] of [
      ['GET', `/portal/instance/company?domain_id=${d.id}`, undefined],
      ['PUT', `/portal/instance/company?domain_id=${d.id}`, { name: 'Stolen' }],
      ['GET', `/portal/instance/property?domain_id=${d.id}`, undefined],
      ['PUT', `/portal/instance/property?domain_id=${d.id}`, { primary_color: '#000000' }],
      ['GET', '/portal/instance/property?merchant_id=shared-name', undefined],
      ['GET', '/portal/instance/property?domain_id=not-a-uuid', undefined],
    ] as const) {
      const res = await h.call(other, method, path, body);
      expect([method, path, res.status, res.body]).toEqual([method, path, 404, envelope('RESOURCE.NOT_FOUND', 404)]);
    }
    const read = (await h.call(owner, 'GET', `/portal/domains/${d.id}`)).body.result;
    expect(read.property.company.name).toBe(`Company of ${d.host}`);
    expect(await h.outbox(owner.id, 'property.updated')).toEqual([]);
  });

  it('when the query names no customer or both, or the body is bad, then 400 VALIDATION.INVALID naming the fields', async () => {
    const p = h.partner();
    const d = await create(p, { merchant_id: 'm-q' });
    for (const query of ['', `?domain_id=${d.id}&merchant_id=m-q`, '?domain_id=']) {
      const res = await h.call(p, 'GET', `/portal/instance/company${query}`);
      expect([query, res.status, res.body]).toEqual([query, 400, envelope('VALIDATION.INVALID', 400)]);
    }
    const bad: [Record<string, unknown>, string][] = [
      [{ primary_color: 'red' }, 'primary_color'],
      [{ text_color: '#12345' }, 'text_color'],
      [{ widget_position: 'MIDDLE' }, 'widget_position'],
      [{ border_radius: 99 }, 'border_radius'],
      [{ border_radius: '4vw' }, 'border_radius'],
      [{ widget_font: 'x;}body{' }, 'widget_font'],
      [{ has_welcome_message: 'yes' }, 'has_welcome_message'],
      [{ name: '' }, 'name'],
    ];
    for (const [body, field] of bad) {
      const res = await h.call(p, 'PUT', `/portal/instance/property?domain_id=${d.id}`, body);
      expect([field, res.status, res.body]).toEqual([field, 400, envelope('VALIDATION.INVALID', 400)]);
      expect(res.body.error.data.issues.map((i: { path: string }) => i.path).join()).toContain(field);
    }
    for (const [body, field] of [
      [{ email: 'not-an-email' }, 'email'],
      [{ address: { country: 'XX' } }, 'country'],
      [{ address: { postal_code: 'x'.repeat(21) } }, 'postal_code'],
      [{ name: 7 }, 'name'],
    ] as const) {
      const res = await h.call(p, 'PUT', `/portal/instance/company?domain_id=${d.id}`, body);
      expect([field, res.status, res.body]).toEqual([field, 400, envelope('VALIDATION.INVALID', 400)]);
    }
    const notJson = await act(h.base, 'PUT', `/portal/instance/property?domain_id=${d.id}`, {
      token: p.token,
      body: '{',
    });
    expect(notJson.body).toEqual(envelope('VALIDATION.MALFORMED_JSON', 400));
    expect(await h.outbox(p.id, 'property.updated')).toEqual([]);
  });

  it('when the key lacks instance:write (or instance:read), then 403 naming it', async () => {
    const owner = h.partner();
    const d = await create(owner);
    const readOnly = h.apiKeyOf(owner.id, { permissions: PERMISSIONS.filter((x) => x !== 'instance:write') });
    const put = await h.call(readOnly, 'PUT', `/portal/instance/property?domain_id=${d.id}`, { primary_color: '#000' });
    expect([put.status, put.body.error.data]).toEqual([403, { required: 'instance:write' }]);
    expect((await h.call(readOnly, 'GET', `/portal/instance/property?domain_id=${d.id}`)).status).toBe(200);
    const none = h.apiKeyOf(owner.id, { permissions: ['domains:read'] });
    const get = await h.call(none, 'GET', `/portal/instance/company?domain_id=${d.id}`);
    expect([get.status, get.body.error.data]).toEqual([403, { required: 'instance:read' }]);
  });

  it('when a keyed PUT is sent twice, then the second replays the first answer and emits nothing more', async () => {
    const p = h.partner();
    const d = await create(p);
    const send = () =>
      act(h.base, 'PUT', `/portal/instance/property?domain_id=${d.id}`, {
        token: p.token,
        body: { primary_color: '#abcdef' },
        headers: { 'Idempotency-Key': `instance-${d.id}` },
      });
    const first = await send();
    const second = await send();
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.body).toEqual(first.body);
    expect(await h.outbox(p.id, 'property.updated')).toHaveLength(1);
  });
});
