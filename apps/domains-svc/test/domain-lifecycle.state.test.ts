import {
  domainChangedEventSchema,
  domainDeactivatedEventSchema,
  domainDeletedEventSchema,
  propertyUpdatedEventSchema,
} from '@platform/contracts';
import { sql } from '@platform/db';
import { createBody, envelope, startDomainsSvc, uniqueHost, type Harness, type TestPartner } from './support/harness';

describe('domain lifecycle: update, deactivate, activate, invite, delete', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startDomainsSvc();
  });
  afterAll(() => h?.close());

  const create = async (p: TestPartner, extra: Record<string, unknown> = {}) => {
    const host = uniqueHost();
    const d = (await h.call(p, 'POST', '/portal/domains', createBody(host, extra))).body.result;
    return { ...d, host };
  };

  it('when widget settings change, then the read shows them and property.updated lists only the changed ones', async () => {
    const p = h.partner();
    const d = await create(p);
    const res = await h.call(p, 'PUT', `/portal/domains/${d.id}`, {
      company_trade_name: 'Trade Co',
      city: 'Oslo',
      has_scripts: false,
      has_docs: true,
      default_notice_type: 'FOOTER',
      primary_color: 'ABC',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: { id: d.id } });
    const read = (await h.call(p, 'GET', `/portal/domains/${d.id}`)).body.result;
    expect(read).toMatchObject({
      company_trade_name: 'Trade Co',
      has_scripts: false,
      has_docs: true,
      default_notice_type: 'FOOTER',
    });
    expect(read.property.company.address.city).toBe('Oslo');
    expect(Date.parse(read.updated_at)).toBeGreaterThan(Date.parse(d.updated_at));
    const [event] = await h.outbox(p.id, 'property.updated');
    const payload = propertyUpdatedEventSchema.parse(event.message.payload);
    expect(payload.params).toEqual({
      property_id: d.instance_property_id,
      has_scripts: false,
      default_notice_type: 'FOOTER',
      primary_color: '#abc',
    });
    expect(payload.entity.data).toMatchObject({
      id: d.instance_property_id,
      name: d.host,
      has_scripts: false,
      primary_color: '#abc',
      company_id: d.instance_company_id,
      activated_at: null,
    });
    // The company is projected (consent records name it): domain.changed carries its new trade name and city.
    const changed = (await h.outbox(p.id, 'domain.changed')).map(
      (r) => domainChangedEventSchema.parse(r.message.payload).params,
    );
    expect(changed.map((c) => [c.change, c.domain.company?.trade_name, c.domain.company?.city])).toEqual([
      ['created', null, null],
      ['updated', 'Trade Co', 'Oslo'],
    ]);
  });

  it('when only company fields or unchanged settings are sent, then no property.updated is written', async () => {
    const p = h.partner();
    const d = await create(p);
    expect(
      (await h.call(p, 'PUT', `/portal/domains/${d.id}`, { company_name: 'Renamed', has_dsar: true })).status,
    ).toBe(200);
    expect((await h.call(p, 'GET', `/portal/domains/${d.id}`)).body.result.property.company.name).toBe('Renamed');
    expect(await h.outbox(p.id, 'property.updated')).toEqual([]);
    // The company name is projected: domain.changed carries the new one.
    const changed = (await h.outbox(p.id, 'domain.changed')).map(
      (r) => r.message.payload.params as { change: string; domain: { company_name: string } },
    );
    expect(changed.map((c) => [c.change, c.domain.company_name])).toEqual([
      ['created', expect.any(String)],
      ['updated', 'Renamed'],
    ]);
  });

  it('when an update body is invalid, then 400 and nothing changes', async () => {
    const p = h.partner();
    const d = await create(p);
    const before = (await h.call(p, 'GET', `/portal/domains/${d.id}`)).body.result;
    const bad = await h.call(p, 'PUT', `/portal/domains/${d.id}`, {
      has_scripts: 'yes',
      country: 'Germany',
      company_name: 'Not Stored',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.data.issues.map((i: { path: string }) => i.path).sort()).toEqual([
      'body.country',
      'body.has_scripts',
    ]);
    expect((await h.call(p, 'GET', `/portal/domains/${d.id}`)).body.result).toEqual(before);
    expect((await h.call(p, 'PUT', `/portal/domains/${d.id}`)).body).toEqual(envelope('VALIDATION.INVALID', 400));
  });

  it('when an ACTIVE domain is deactivated, then it is INACTIVE, domain.deactivated carries has_dsar and has_dsara, and a second deactivate is 409', async () => {
    const p = h.partner();
    const d = await create(p, { has_dsar: false });
    await h.setStatus(d.id, 'ACTIVE');
    const res = await h.call(p, 'POST', `/portal/domains/${d.id}/deactivate`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: {} });
    const read = (await h.call(p, 'GET', `/portal/domains/${d.id}`)).body.result;
    expect(read).toMatchObject({ status: 'INACTIVE', is_active: false });
    const [event] = await h.outbox(p.id, 'domain.deactivated');
    const payload = domainDeactivatedEventSchema.parse(event.message.payload);
    expect(payload.params).toEqual({ domain: d.host, domain_id: d.id });
    expect(payload.entity.data).toMatchObject({ id: d.id, status: 'INACTIVE', has_dsar: false, has_dsara: false });
    const again = await h.call(p, 'POST', `/portal/domains/${d.id}/deactivate`);
    expect(again.body).toEqual(envelope('DOMAIN.INVALID_STATE', 409));
    expect(await h.outbox(p.id, 'domain.deactivated')).toHaveLength(1);
    expect((await h.call(p, 'POST', `/portal/domains/${d.id}/activate`)).status).toBe(200);
    expect((await h.call(p, 'GET', `/portal/domains/${d.id}`)).body.result).toMatchObject({
      status: 'ACTIVE',
      is_active: true,
    });
  });

  it.each(['NEW', 'SCANNED', 'INVITED'])(
    'when a %s domain is deactivated or activated, then 409 DOMAIN.INVALID_STATE',
    async (status) => {
      const p = h.partner();
      const d = await create(p);
      await h.setStatus(d.id, status);
      expect((await h.call(p, 'POST', `/portal/domains/${d.id}/deactivate`)).body).toEqual(
        envelope('DOMAIN.INVALID_STATE', 409),
      );
      expect((await h.call(p, 'POST', `/portal/domains/${d.id}/activate`)).body).toEqual(
        envelope('DOMAIN.INVALID_STATE', 409),
      );
    },
  );

  it('when a NEW domain is invited without a body, then 400; with send_invite, INVITED and the invitation and intro arrive', async () => {
    const p = h.partner();
    const d = await create(p);
    expect((await h.call(p, 'POST', `/portal/domains/${d.id}/invite`)).body).toEqual(
      envelope('VALIDATION.INVALID', 400),
    );
    const res = await h.call(p, 'POST', `/portal/domains/${d.id}/invite`, { send_invite: true });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: {} });
    expect((await h.call(p, 'GET', `/portal/domains/${d.id}`)).body.result.status).toBe('INVITED');
    const invite = await h.smtp.waitForMessage(
      (m) => m.to.includes(`owner@${d.host}`) && m.subject.startsWith('Activate'),
    );
    expect(invite.decoded).toContain(d.privacy_widget);
    const intro = await h.smtp.waitForMessage(
      (m) => m.to.includes(`owner@${d.host}`) && m.subject.startsWith('Welcome'),
    );
    expect(intro.decoded).toContain(d.host);
  });

  it('when send_intro=false and send_invite=true are both given, then send_intro wins: only the invitation is queued', async () => {
    const p = h.partner();
    const d = await create(p);
    await h.setStatus(d.id, 'INACTIVE');
    expect(
      (await h.call(p, 'POST', `/portal/domains/${d.id}/invite`, { send_intro: false, send_invite: true })).status,
    ).toBe(200);
    const { rows } = await sql<{
      kind: string;
    }>`SELECT kind FROM domains.mail_queue WHERE partner_id = ${p.id}`.execute(h.deps.db);
    expect(rows.map((r) => r.kind)).toEqual(['invite']);
    expect((await h.call(p, 'GET', `/portal/domains/${d.id}`)).body.result).toMatchObject({
      status: 'INVITED',
      is_active: true,
    });
  });

  it('when an ACTIVE domain is invited, then 409 and no e-mail is queued', async () => {
    const p = h.partner();
    const d = await create(p);
    await h.setStatus(d.id, 'ACTIVE');
    expect((await h.call(p, 'POST', `/portal/domains/${d.id}/invite`, {})).body).toEqual(
      envelope('DOMAIN.INVALID_STATE', 409),
    );
    const { rows } = await sql`SELECT 1 FROM domains.mail_queue WHERE partner_id = ${p.id}`.execute(h.deps.db);
    expect(rows).toEqual([]);
  });

  it('when a domain is deleted, then it, its subdomains and property are gone, domain.deleted is written, and a second delete is 404', async () => {
    const p = h.partner();
    const keep = await create(p, { company_name: 'Kept Co' });
    const d = await create(p, { company_name: 'Kept Co', subdomains: ['blog'] });
    const res = await h.call(p, 'DELETE', `/portal/domains/${d.id}`);
    expect(res.body).toEqual({ result: { deleted: true } });
    expect((await h.call(p, 'GET', `/portal/domains/${d.id}`)).body).toEqual(envelope('RESOURCE.NOT_FOUND', 404));
    expect((await h.call(p, 'DELETE', `/portal/domains/${d.id}`)).body).toEqual(envelope('RESOURCE.NOT_FOUND', 404));
    const [event] = await h.outbox(p.id, 'domain.deleted');
    const created = (await h.outbox(p.id, 'domain.created')).find((r) => r.message.payload.params.domain_id === d.id)!;
    expect(domainDeletedEventSchema.parse(event.message.payload).params).toEqual({
      id: d.id,
      domain: d.host,
      property_id: d.instance_property_id,
      company_id: d.instance_company_id,
      subscriptions: [created.message.payload.params.subscription_id],
    });
    const { rows } =
      await sql`SELECT 1 FROM domains.subdomains WHERE domain_id = ${d.id} UNION ALL SELECT 1 FROM domains.properties WHERE id = ${d.instance_property_id}`.execute(
        h.deps.db,
      );
    expect(rows).toEqual([]);
    // The shared company stays while another domain uses it.
    expect((await h.call(p, 'GET', `/portal/domains/${keep.id}`)).body.result.property.company.id).toBe(
      d.instance_company_id,
    );
  });
});
