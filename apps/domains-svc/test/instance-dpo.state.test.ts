import { domainChangedEventSchema, instanceCompanySchema } from '@platform/contracts';
import { createBody, envelope, startDomainsSvc, uniqueHost, type Harness, type TestPartner } from './support/harness';

describe("instance company: the customer's data protection officer (dpo)", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startDomainsSvc();
  });
  afterAll(() => h?.close());

  const create = async (p: TestPartner, extra: Record<string, unknown> = {}) => {
    const host = uniqueHost();
    const d = (await h.call(p, 'POST', '/portal/domains', createBody(host, extra))).body.result;
    return { id: d.id as string, propertyId: d.instance_property_id as string, host };
  };
  const company = (d: { id: string }) => `/portal/instance/company?domain_id=${d.id}`;
  const widgetDpo = async (d: { host: string; propertyId: string }) =>
    (await h.visit(`https://${d.host}`, 'GET', `/widget/v1/properties/${d.propertyId}/settings`)).body.result.dpo;
  const updates = async (p: TestPartner) =>
    (await h.outbox(p.id, 'domain.changed')).filter(
      (r) => domainChangedEventSchema.parse(r.message.payload).params.change === 'updated',
    ).length;

  it('when the DPO is set, then the company answer, its read and the widget show it; the company path emits domain.changed', async () => {
    const p = h.partner();
    const d = await create(p);
    const before = await h.call(p, 'GET', company(d));
    expect(instanceCompanySchema.strict().parse(before.body.result).dpo).toBeNull();
    expect(await widgetDpo(d)).toBeNull();
    const put = await h.call(p, 'PUT', company(d), { dpo: { name: '  Privacy Team ', email: 'DPO@Example.org' } });
    expect(put.status).toBe(200);
    const dpo = { name: 'Privacy Team', email: 'dpo@example.org' };
    expect(instanceCompanySchema.strict().parse(put.body.result).dpo).toEqual(dpo);
    expect((await h.call(p, 'GET', company(d))).body.result).toEqual(put.body.result);
    expect(await widgetDpo(d)).toEqual(dpo);
    expect(await updates(p)).toBe(1);
    expect(await h.outbox(p.id, 'property.updated')).toEqual([]);
    // The same DPO again changes nothing: no event.
    expect((await h.call(p, 'PUT', company(d), { dpo })).status).toBe(200);
    expect(await updates(p)).toBe(1);
  });

  it('when one field is set to null, then only it is cleared; dpo null clears both and the widget shows none', async () => {
    const p = h.partner();
    const d = await create(p);
    await h.call(p, 'PUT', company(d), { dpo: { name: 'Ada Lovelace', email: 'ada@example.org' } });
    const partial = await h.call(p, 'PUT', company(d), { dpo: { email: null }, name: 'Renamed AB' });
    expect(partial.body.result).toMatchObject({ name: 'Renamed AB', dpo: { name: 'Ada Lovelace', email: null } });
    expect(await widgetDpo(d)).toEqual({ name: 'Ada Lovelace', email: null });
    // A body without dpo leaves it as it is.
    const other = await h.call(p, 'PUT', company(d), { address: { city: 'Lund' } });
    expect(other.body.result.dpo).toEqual({ name: 'Ada Lovelace', email: null });
    const cleared = await h.call(p, 'PUT', company(d), { dpo: null });
    expect(cleared.body.result.dpo).toBeNull();
    expect((await h.call(p, 'GET', company(d))).body.result.dpo).toBeNull();
    expect(await widgetDpo(d)).toBeNull();
  });

  it('when the property hides the DPO view (display_dpo false), then the widget is not sent the DPO', async () => {
    const p = h.partner();
    const d = await create(p, { display_dpo: false });
    await h.call(p, 'PUT', company(d), { dpo: { email: 'dpo@example.org' } });
    expect(await widgetDpo(d)).toBeNull();
    await h.call(p, 'PUT', `/portal/instance/property?domain_id=${d.id}`, { display_dpo: true });
    expect(await widgetDpo(d)).toEqual({ name: null, email: 'dpo@example.org' });
  });

  it('when the DPO breaks the rules, then 400 VALIDATION.INVALID naming the field, and nothing changes', async () => {
    const p = h.partner();
    const d = await create(p);
    for (const [dpo, field] of [
      [{ name: '' }, 'body.dpo.name'],
      [{ name: '   ' }, 'body.dpo.name'],
      [{ name: 'Line one\nLine two' }, 'body.dpo.name'],
      [{ name: 'x'.repeat(201) }, 'body.dpo.name'],
      [{ email: 'not-an-email' }, 'body.dpo.email'],
      [{ email: 7 }, 'body.dpo.email'],
      ['Ada', 'body.dpo'],
    ] as const) {
      const res = await h.call(p, 'PUT', company(d), { dpo });
      expect([field, res.status, res.body]).toEqual([field, 400, envelope('VALIDATION.INVALID', 400)]);
      expect(res.body.error.data.issues.map((i: { path: string }) => i.path)).toContain(field);
    }
    expect((await h.call(p, 'GET', company(d))).body.result.dpo).toBeNull();
    expect(await updates(p)).toBe(0);
  });
});
