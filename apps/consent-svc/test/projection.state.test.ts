import { waitFor } from '@platform/testing';
import {
  domainChanged,
  domainCreated,
  domainDeleted,
  domainState,
  propertyUpdated,
  receipt,
  receiptsPath,
  startConsent,
  type ConsentTest,
} from './support';

describe("consent-svc's projection of domains (domain.created, domain.changed, domain.deleted)", () => {
  let c: ConsentTest;
  beforeAll(async () => {
    // Receipts see the projection at once (no live-property cache): what these tests are about.
    c = await startConsent({ LIVE_PROPERTY_CACHE_MS: '0' });
  });
  afterAll(() => c?.close());

  /** A domain.changed of a domain of its own, published behind the test's messages; once it is applied, those were delivered first. */
  const settle = async (partnerId: string) => {
    const marker = domainState();
    await c.publish(domainChanged(partnerId, marker, 2));
    await waitFor(() => c.property(marker.property_id), { what: 'the marker property' });
  };

  it('when domain.changed comes before its domain.created, then the property has both the state and the address; duplicates and older versions change nothing', async () => {
    const partnerId = `partner_${Date.now()}`;
    const domain = domainState({ merchants: ['m-1'], subdomains: ['blog.x.example.com'] });
    const changed = domainChanged(partnerId, { ...domain, company_name: 'Renamed GmbH' }, 3);
    await c.publish(changed);
    await c.publish(domainCreated(partnerId, domain, 1));
    const expected = {
      partner_id: partnerId,
      domain_id: domain.id,
      hostname: domain.hostname,
      subdomains: ['blog.x.example.com'],
      merchant_ids: ['m-1'],
      merchant_refs: [],
      company: expect.objectContaining({
        name: 'Renamed GmbH',
        country: 'DE',
        city: 'Berlin',
        postal_code: '10117',
        email: 'owner@example.com',
      }),
      deleted: false,
    };
    const projected = await waitFor(
      async () => {
        const row = await c.property(domain.property_id);
        return row?.company.country === 'DE' ? row : undefined;
      },
      { what: 'both events applied' },
    );
    expect(projected).toMatchObject(expected);

    // The same message again (at-least-once delivery) and an older state arriving late.
    await c.publish(changed);
    await c.publish(domainChanged(partnerId, { ...domain, hostname: 'old.example.com', merchants: [] }, 2));
    await settle(partnerId);
    expect(await c.property(domain.property_id)).toEqual(projected);

    await c.publish(
      domainChanged(
        partnerId,
        { ...domain, company_name: 'Renamed GmbH', hostname: 'new.example.com', merchants: ['m-2'] },
        4,
      ),
    );
    const moved = await waitFor(
      async () => {
        const row = await c.property(domain.property_id);
        return row?.hostname === 'new.example.com' ? row : undefined;
      },
      { what: 'version 4' },
    );
    expect(moved).toMatchObject({ ...expected, hostname: 'new.example.com', merchant_ids: ['m-2'] });
  });

  it('when domain.changed carries the company (its address changed), then the next record names the new address', async () => {
    const p = c.partner();
    const domain = await c.domain(p.id);
    const company = {
      name: 'Moved GmbH',
      trade_name: 'Moved',
      email: 'legal@moved.example.com',
      phone_number: '+49 30 1',
      country: 'AT',
      state: null,
      city: 'Wien',
      address: 'Ring 1',
      address_2: 'Stiege 2',
      postal_code: '1010',
    };
    await c.publish(domainChanged(p.id, { ...domain, company }, 3));
    await waitFor(async () => (await c.property(domain.property_id))?.company.country === 'AT', {
      what: 'the new address',
    });
    const res = await c.widget('POST', receiptsPath(domain.property_id), {
      origin: `https://${domain.hostname}`,
      body: receipt(),
    });
    expect(res.body.result.data_controller).toEqual({
      name: 'Moved',
      logo: null,
      phone_number: '+49 30 1',
      url: `https://${domain.hostname}`,
      email: 'legal@moved.example.com',
      address: {
        id: domain.company_id,
        country: 'AT',
        state: null,
        address: 'Ring 1',
        address_2: 'Stiege 2',
        postal_code: '1010',
        phone_number: '+49 30 1',
      },
    });
  });

  it("when the scanner's findings arrive (property.updated with data_collection), then later records name them with the visitor's answer per category; an older update changes nothing", async () => {
    const p = c.partner();
    const domain = await c.domain(p.id);
    const item = (category: string, vendor: string) => ({
      name: category,
      description: `${category} technologies found on ${domain.hostname}`,
      fields: [{ categories: [category], consent_type: 'OPT_IN', name: `${vendor}_cookie` }],
      partners: [{ name: vendor, usage: category, url: `https://${vendor.toLowerCase()}.example` }],
      processors: [],
      purposes: [
        {
          category,
          is_primary: false,
          is_profiling: category === 'marketing',
          legal_base: 'CONSENT',
          legal_description: 'why',
          name: category,
          status: 'ACTIVE',
          termination: 'until changed',
        },
      ],
    });
    await c.publish(
      propertyUpdated(p.id, domain, 7, { data_collection: [item('analytics', 'Google'), item('marketing', 'Meta')] }),
    );
    await c.publish(propertyUpdated(p.id, domain, 6, { data_collection: [item('analytics', 'Stale')] }));
    await c.publish(propertyUpdated(p.id, domain, 8, { primary_color: '#ff0000' }));
    await settle(p.id);

    const res = await c.widget('POST', receiptsPath(domain.property_id), {
      origin: `https://${domain.hostname}`,
      body: receipt({ categories: { functional: false, analytics: true, marketing: false } }),
    });
    expect(res.status).toBe(201);
    const scanned = (
      res.body.result.data_collection as {
        partners: { name: string }[];
        purposes: { category: string; status: string }[];
      }[]
    ).slice(1);
    expect(scanned.map((i) => [i.partners[0].name, i.purposes[0].category, i.purposes[0].status])).toEqual([
      ['Google', 'analytics', 'GRANTED'],
      ['Meta', 'marketing', 'DENIED'],
    ]);
  });

  it('when the domain is deleted, then widget requests for its property answer 404 and a late older domain.changed does not bring it back', async () => {
    const p = c.partner();
    const domain = await c.domain(p.id);
    const origin = `https://${domain.hostname}`;
    expect((await c.widget('POST', receiptsPath(domain.property_id), { origin, body: receipt() })).status).toBe(201);
    await c.publish(domainDeleted(p.id, domain, 5));
    await waitFor(async () => (await c.property(domain.property_id))?.deleted, { what: 'the deletion' });
    await c.publish(domainChanged(p.id, domain, 4));
    await settle(p.id);
    expect((await c.property(domain.property_id))?.deleted).toBe(true);
    expect((await c.widget('POST', receiptsPath(domain.property_id), { origin, body: receipt() })).status).toBe(404);
    // Its records stay readable by the partner.
    expect((await p.get(`/portal/instance/company/records?domain_id=${domain.id}`)).body.result).toHaveLength(1);
  });

  it('when a burst of creates publishes domain.created and domain.changed alternately, with repeats and stale versions among them, then every property ends with its newest state, its address and its has_dsar', async () => {
    const p = c.partner();
    const domains = Array.from({ length: 30 }, (_, i) => domainState({ company_name: `Burst ${i} Ltd` }));
    const burst: ReturnType<typeof domainChanged>[] = [];
    for (const [i, d] of domains.entries()) {
      const created = domainCreated(p.id, d, 1);
      if (i % 3 === 0) (created.payload.params as { has_dsar: boolean }).has_dsar = false;
      burst.push(created, domainChanged(p.id, { ...d, hostname: `v2-${d.hostname}` }, 2));
      // Every fifth domain: its message again (at-least-once) and an older state behind the newer one.
      if (i % 5 === 0) burst.push(created, domainChanged(p.id, { ...d, hostname: `stale-${d.hostname}` }, 1));
    }
    await Promise.all(burst.map((m) => c.publish(m)));
    await settle(p.id);
    for (const [i, d] of domains.entries()) {
      const row = await waitFor(
        async () => {
          const found = await c.property(d.property_id);
          return found?.company.country === 'DE' && found.hostname === `v2-${d.hostname}` ? found : undefined;
        },
        { what: `property ${i}` },
      );
      expect(row).toMatchObject({
        partner_id: p.id,
        company: expect.objectContaining({ name: `Burst ${i} Ltd`, city: 'Berlin' }),
        has_dsar: i % 3 !== 0,
      });
    }
  });
});
