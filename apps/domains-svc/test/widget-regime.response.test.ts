import { propertyEntityDataSchema, propertyUpdatedEventSchema, type WidgetSettings } from '@platform/contracts';
import { SAMPLE_ADDRESSES } from '@platform/geo';
import { startDomainsSvc, type Harness, type TestPartner, createTestDomain, type TestDomain } from './support/harness';

/** The settings answer's regime: from the visitor's address (the gateway's X-Forwarded-For), or pinned by the property. */
describe("the widget settings' regime", () => {
  let h: Harness;
  let p: TestPartner;
  beforeAll(async () => {
    h = await startDomainsSvc();
    p = h.partner();
  });
  afterAll(() => h?.close());

  const createDomain = () => createTestDomain(h, p);
  type Domain = TestDomain;
  const settings = (d: Domain, address?: string, ifNoneMatch?: string) =>
    h.visit(`https://${d.host}`, 'GET', `/widget/v1/properties/${d.propertyId}/settings`, undefined, {
      ...(address ? { 'x-forwarded-for': address } : {}),
      ...(ifNoneMatch ? { 'if-none-match': ifNoneMatch } : {}),
    });
  const regimeOf = async (d: Domain, address?: string) =>
    ((await settings(d, address)).body.result as WidgetSettings).regime;
  const putProperty = (d: Domain, body: unknown) =>
    h.call(p, 'PUT', `/portal/instance/property?domain_id=${d.id}`, body);
  const cacheCount = async (result: 'hit' | 'miss') => {
    const text = await (await fetch(`${h.adminUrl}/metrics`)).text();
    const line = text
      .split('\n')
      .find((l) => l.startsWith('widget_settings_cache_total{') && l.includes(`result="${result}"`));
    return line ? Number(line.split(' ').pop()) : 0;
  };

  it("when visitors come from Berlin, Los Angeles, Texas, Tokyo or nowhere known, then each gets their place's regime, with a private, revalidated answer whose ETag differs per regime", async () => {
    const d = await createDomain();
    expect(await regimeOf(d, SAMPLE_ADDRESSES.berlin)).toBe('OPT_IN');
    expect(await regimeOf(d, SAMPLE_ADDRESSES.losAngeles)).toBe('OPT_OUT');
    expect(await regimeOf(d, `${SAMPLE_ADDRESSES.texas}, 10.0.0.1`)).toBe('OPT_OUT');
    expect(await regimeOf(d, SAMPLE_ADDRESSES.tokyo)).toBe('NOTICE_ONLY');
    expect(await regimeOf(d, '192.168.1.10')).toBe('OPT_IN');
    expect(await regimeOf(d)).toBe('OPT_IN');

    const berlin = await settings(d, SAMPLE_ADDRESSES.berlin);
    const la = await settings(d, SAMPLE_ADDRESSES.losAngeles);
    expect(berlin.headers.get('cache-control')).toBe('private, no-cache');
    expect(berlin.headers.get('etag')).not.toBe(la.headers.get('etag'));
    expect((await settings(d, SAMPLE_ADDRESSES.berlin, berlin.headers.get('etag')!)).status).toBe(304);
    // Another regime's ETag is not this visitor's: the whole answer again.
    expect((await settings(d, SAMPLE_ADDRESSES.berlin, la.headers.get('etag')!)).status).toBe(200);
  });

  it('when the property pins a regime, then every visitor gets it; AUTO gives the place back; an unknown one is 400', async () => {
    const d = await createDomain();
    expect((await h.call(p, 'GET', `/portal/instance/property?domain_id=${d.id}`)).body.result).toMatchObject({
      regime: 'AUTO',
      ads_data_redaction: true,
      url_passthrough: false,
    });
    expect((await putProperty(d, { regime: 'STRICT' })).status).toBe(400);
    const res = await putProperty(d, { regime: 'OPT_OUT', url_passthrough: true, ads_data_redaction: false });
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({ regime: 'OPT_OUT', url_passthrough: true, ads_data_redaction: false });
    expect(await regimeOf(d, SAMPLE_ADDRESSES.berlin)).toBe('OPT_OUT');
    expect(await regimeOf(d, SAMPLE_ADDRESSES.tokyo)).toBe('OPT_OUT');
    expect((await settings(d, SAMPLE_ADDRESSES.berlin)).body.result.consent_mode).toEqual({
      ads_data_redaction: false,
      url_passthrough: true,
    });
    // property.updated's entity data stays the spec's: the regime is not in it.
    const [updated] = (await h.outbox(p.id, 'property.updated')).slice(-1);
    const payload = propertyUpdatedEventSchema.parse(updated.message.payload);
    expect(payload.params).toMatchObject({ regime: 'OPT_OUT' });
    expect(propertyEntityDataSchema.strict().safeParse(payload.entity.data).success).toBe(true);
    await putProperty(d, { regime: 'AUTO' });
    expect(await regimeOf(d, SAMPLE_ADDRESSES.berlin)).toBe('OPT_IN');
  });

  it('when a region asks again, then the answer comes from the cache (a hit), and a change to the property is seen at once', async () => {
    const d = await createDomain();
    const misses = await cacheCount('miss');
    await settings(d, SAMPLE_ADDRESSES.saoPaulo);
    expect(await cacheCount('miss')).toBe(misses + 1);
    const hits = await cacheCount('hit');
    for (let i = 0; i < 3; i++) expect((await settings(d, SAMPLE_ADDRESSES.tokyo)).status).toBe(200); // NOTICE_ONLY too
    expect(await cacheCount('hit')).toBe(hits + 3);
    expect((await putProperty(d, { primary_color: '#112233' })).status).toBe(200);
    expect((await settings(d, SAMPLE_ADDRESSES.saoPaulo)).body.result.primary_color).toBe('#112233');
    expect(await cacheCount('miss')).toBe(misses + 2);
  });
});
