import { WidgetSettingsCache } from '../src/widget/settings-cache';
import { createBody, startDomainsSvc, uniqueHost, type Harness, type TestPartner } from './support/harness';

/** The settings cache's own rules: an entry's life, the bound on entries, a missing property. */
describe('the widget settings cache', () => {
  let h: Harness;
  let p: TestPartner;
  beforeAll(async () => {
    h = await startDomainsSvc();
    p = h.partner();
  });
  afterAll(() => h?.close());

  const createProperty = async () => {
    const res = await h.call(p, 'POST', '/portal/domains', createBody(uniqueHost()));
    expect(res.status).toBe(200);
    return res.body.result.instance_property_id as string;
  };
  const counted = (now: { t: number }, maxEntries = 10) => {
    const counts = { hit: 0, miss: 0 };
    const cache = new WidgetSettingsCache({
      ttlMs: 1000,
      maxEntries,
      now: () => now.t,
      counters: { hit: () => counts.hit++, miss: () => counts.miss++ },
    });
    return { cache, counts };
  };

  it('when an entry is as old as its life, then it is built again; each regime is its own entry with its own ETag', async () => {
    const id = await createProperty();
    const now = { t: 0 };
    const { cache, counts } = counted(now);
    const first = await cache.answer(h.context, id, 'OPT_IN');
    expect(await cache.answer(h.context, id, 'OPT_IN')).toBe(first);
    now.t = 999;
    await cache.answer(h.context, id, 'OPT_IN');
    expect(counts).toEqual({ hit: 2, miss: 1 });
    now.t = 1000;
    await cache.answer(h.context, id, 'OPT_IN');
    expect(counts).toEqual({ hit: 2, miss: 2 });
    const optOut = await cache.answer(h.context, id, 'OPT_OUT');
    expect(optOut.body.result.regime).toBe('OPT_OUT');
    expect(optOut.etag).not.toBe(first.etag);
    expect(cache.size).toBe(2);
  });

  it('when more entries than the bound are built, then the oldest goes; a property that does not exist (or no longer) is 404', async () => {
    const [a, b] = [await createProperty(), await createProperty()];
    const { cache, counts } = counted({ t: 0 }, 1);
    await cache.answer(h.context, a, 'OPT_IN');
    await cache.answer(h.context, b, 'OPT_IN');
    expect(cache.size).toBe(1);
    await cache.answer(h.context, a, 'OPT_IN'); // a was dropped: built again
    expect(counts).toEqual({ hit: 0, miss: 3 });
    await expect(cache.answer(h.context, '00000000-0000-4000-8000-000000000000', 'OPT_IN')).rejects.toMatchObject({
      code: 'RESOURCE.NOT_FOUND',
    });
  });
});
