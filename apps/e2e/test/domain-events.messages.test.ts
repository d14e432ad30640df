import type { Client } from 'pg';
import { bindProbe, testInfra, type BrokerProbe } from '@platform/testing';
import { sharedSystem, type Partner, type System } from './support/system';

describe('domain events reach RabbitMQ through the outbox', () => {
  let sys: System;
  let partner: Partner;
  let probe: BrokerProbe;
  let db: Client;

  const create = async (extra: Record<string, unknown> = {}) => {
    const host = `events-${Math.random().toString(36).slice(2, 10)}.example.com`;
    const res = await sys.call(partner, 'POST', '/portal/domains', {
      domain: host,
      company_name: `Events Co ${host}`,
      account_email: `o@${host}`,
      ...extra,
    });
    expect(res.status).toBe(200);
    return res.body.result as {
      id: string;
      hostname: string;
      instance_property_id: string;
      instance_company_id: string;
    };
  };

  beforeAll(async () => {
    sys = await sharedSystem();
    partner = await sys.partner();
    probe = await bindProbe((await testInfra()).amqpUrl, sys.exchange, ['#']);
    db = await sys.db();
  });
  afterAll(async () => {
    await probe?.close();
    await sys?.close();
  });

  it('when an ACTIVE domain is deactivated and activated, then domain.deactivated carries both has_dsar spellings and the list hides it meanwhile', async () => {
    const d = await create();
    // Only the widget's first page view makes a domain ACTIVE; set that state directly.
    await db.query(
      `UPDATE domains.domains SET status = 'ACTIVE', is_active = true, activated_at = now() WHERE id = $1`,
      [d.id],
    );
    expect((await sys.call(partner, 'POST', `/portal/domains/${d.id}/deactivate`)).body).toEqual({ result: {} });
    const event = await probe.next(
      (m) => m.payload.event === 'domain.deactivated' && m.payload.params.domain_id === d.id,
      10_000,
    );
    expect(event.partner_id).toBe(partner.id);
    expect(event.payload.params).toEqual({ domain: d.hostname, domain_id: d.id });
    expect(event.payload.entity).toEqual({
      kind: 'domain',
      data: expect.objectContaining({ id: d.id, status: 'INACTIVE', has_dsar: true, has_dsara: true }),
    });
    const listed = await sys.call(partner, 'GET', '/portal/domains?limit=100');
    expect(listed.body.result.map((x: { id: string }) => x.id)).not.toContain(d.id);
    const inactive = await sys.call(partner, 'GET', '/portal/domains?is_active=false');
    expect(inactive.body.result.map((x: { id: string }) => x.id)).toContain(d.id);
    expect((await sys.call(partner, 'POST', `/portal/domains/${d.id}/activate`)).body).toEqual({ result: {} });
    expect((await sys.call(partner, 'GET', `/portal/domains/${d.id}`)).body.result).toMatchObject({
      status: 'ACTIVE',
      is_active: true,
    });
  });

  it('when a widget setting changes, then property.updated names exactly the changed settings', async () => {
    const d = await create();
    await sys.call(partner, 'PUT', `/portal/domains/${d.id}`, {
      has_scripts: false,
      primary_color: '#112233',
      company_trade_name: 'Not a widget setting',
    });
    const event = await probe.next(
      (m) => m.payload.event === 'property.updated' && m.payload.params.property_id === d.instance_property_id,
      10_000,
    );
    expect(event.payload.params).toEqual({
      property_id: d.instance_property_id,
      has_scripts: false,
      primary_color: '#112233',
    });
    expect(event.payload.entity).toEqual({
      kind: 'property',
      data: expect.objectContaining({
        id: d.instance_property_id,
        has_scripts: false,
        primary_color: '#112233',
        company_id: d.instance_company_id,
      }),
    });
  });

  it('when a domain is deleted, then domain.deleted carries its ids and subscriptions, no entity, and the request id in its headers', async () => {
    const d = await create();
    const requestId = `trace-delete-${d.id}`;
    await sys.call(partner, 'DELETE', `/portal/domains/${d.id}`, undefined, { 'x-request-id': requestId });
    const event = await probe.next((m) => m.payload.event === 'domain.deleted' && m.payload.params.id === d.id, 10_000);
    expect(event.payload).toEqual({
      event: 'domain.deleted',
      params: {
        id: d.id,
        domain: d.hostname,
        property_id: d.instance_property_id,
        company_id: d.instance_company_id,
        subscriptions: [expect.any(String)],
      },
    });
    expect(event.headers['x-request-id']).toBe(requestId);
  });

  it('when a domain is created with SCAN_INVITE, then, once its scan ended, the domain is INVITED and the owner is e-mailed', async () => {
    const d = await create({ action: 'SCAN_INVITE' });
    await sys.smtp.waitForMessage((m) => m.to.includes(`o@${d.hostname}`), 10_000);
    expect((await sys.call(partner, 'GET', `/portal/domains/${d.id}`)).body.result.status).toBe('INVITED');
  });
});
