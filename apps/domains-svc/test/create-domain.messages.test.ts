import { domainChangedEventSchema, domainCreatedEventSchema } from '@platform/contracts';
import { sql } from '@platform/db';
import { createBody, startDomainsSvc, uniqueHost, type Harness } from './support/harness';

describe('create domain: events and e-mail', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startDomainsSvc();
  });
  afterAll(() => h?.close());

  it('when a domain is created, then exactly one domain.created with the spec params and entity is in the outbox, then domain.changed', async () => {
    const p = h.partner();
    const host = uniqueHost();
    const body = createBody(host, {
      country: 'DE',
      city: 'Berlin',
      vat_number: 'DE1',
      merchant_id: 'm-9',
      product: 'PRO',
      has_dsar: false,
      account_first_name: 'Ada',
    });
    const d = (await h.call(p, 'POST', '/portal/domains', body)).body.result;
    const rows = await h.outbox(p.id);
    expect(rows.map((r) => r.routing_key)).toEqual(['domain.created', 'domain.changed']);
    expect(rows.map((r) => [r.message.aggregate_id, r.message.version])).toEqual([
      [d.id, 1],
      [d.id, 2],
    ]);
    const { message } = rows[0];
    expect(message).toMatchObject({ partner_id: p.id, source: 'domains-svc' });
    const payload = domainCreatedEventSchema.parse(message.payload);
    expect(payload.params).toEqual({
      domain_id: d.id,
      domain: host,
      action: 'CREATE_SILENT',
      source: 'API',
      status: 'NEW',
      country: 'DE',
      city: 'Berlin',
      vat_number: 'DE1',
      product_id: 2,
      price_list_id: 1,
      has_docs: true,
      has_dsar: false,
      has_scripts: true,
      has_accessibility: true,
      display_dpo: true,
      display_company: true,
      send_intro: false,
      company_name: `Company of ${host}`,
      account_email: `owner@${host}`,
      account_first_name: 'Ada',
      merchant_id: 'm-9',
      subscription_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    expect(payload.entity.data).toEqual({
      id: d.id,
      hostname: host,
      status: 'NEW',
      has_scripts: true,
      has_dsar: false,
      has_docs: true,
      has_accessibility: true,
      display_dpo: true,
      display_company: true,
      instance_property_id: d.instance_property_id,
      instance_company_id: d.instance_company_id,
      instance: { id: 7, name: 'test-instance', hostname: 'instance.test', region: 'eu' },
      created_at: d.created_at,
      updated_at: d.updated_at,
    });
    const detail = (await h.call(p, 'GET', `/portal/domains/${d.id}`)).body.result;
    expect(detail.subscription.id).toBe(payload.params.subscription_id);
  });

  it('when action is SCAN, then the create queues its scan itself (no event asks for it) and no e-mail is queued', async () => {
    const p = h.partner();
    const host = uniqueHost();
    const d = (await h.call(p, 'POST', '/portal/domains', createBody(host, { action: 'SCAN' }))).body.result;
    const rows = await h.outbox(p.id);
    expect(rows.map((r) => r.routing_key)).toEqual(['domain.created', 'domain.changed']);
    const { rows: scans } = await sql`SELECT requested_by FROM domains.scans WHERE domain_id = ${d.id}`.execute(
      h.deps.db,
    );
    expect(scans).toEqual([{ requested_by: 'SCAN' }]);
    const { rows: mails } = await sql`SELECT 1 FROM domains.mail_queue WHERE partner_id = ${p.id}`.execute(h.deps.db);
    expect(mails).toEqual([]);
  });

  it('when action is SCAN_INVITE, then its scan is queued and, once the scan ends (here the site is down), the owner receives the invitation with the snippet', async () => {
    const p = h.partner();
    const host = uniqueHost();
    const d = (await h.call(p, 'POST', '/portal/domains', createBody(host, { action: 'SCAN_INVITE' }))).body.result;
    const { rows: scans } = await sql`SELECT requested_by FROM domains.scans WHERE domain_id = ${d.id}`.execute(
      h.deps.db,
    );
    expect(scans).toEqual([{ requested_by: 'SCAN_INVITE' }]);
    const mail = await h.smtp.waitForMessage((m) => m.to.includes(`owner@${host}`));
    expect(mail.subject).toBe(`Activate the privacy widget on ${host}`);
    expect(mail.decoded).toContain(d.privacy_widget);
  });

  it('when CREATE_SILENT is sent without send_intro, then no e-mail is sent; with send_intro the intro arrives', async () => {
    const p = h.partner();
    const silent = uniqueHost('silent');
    const intro = uniqueHost('intro');
    await h.call(p, 'POST', '/portal/domains', createBody(silent));
    const d = (await h.call(p, 'POST', '/portal/domains', createBody(intro, { send_intro: true }))).body.result;
    const mail = await h.smtp.waitForMessage((m) => m.to.includes(`owner@${intro}`));
    expect(mail.subject).toContain(intro);
    expect(mail.decoded).toContain(d.privacy_widget);
    expect(h.smtp.messages.filter((m) => m.to.includes(`owner@${silent}`))).toEqual([]);
    const { rows } = await sql<{
      n: string;
    }>`SELECT count(*) AS n FROM domains.mail_queue WHERE partner_id = ${p.id}`.execute(h.deps.db);
    expect(Number(rows[0].n)).toBe(1);
  });

  it('when a domain goes through its life, then every change writes domain.changed with the whole state and the next version', async () => {
    const p = h.partner();
    const host = uniqueHost();
    const d = (await h.call(p, 'POST', '/portal/domains', createBody(host, { subdomains: ['b', 'a'] }))).body.result;
    await h.call(p, 'POST', `/portal/domains/${d.id}/invite`, {});
    await h.call(p, 'PUT', `/portal/domains/${d.id}`, { company_name: 'Renamed Co', has_docs: false });
    await h.call(p, 'POST', `/portal/domains/${d.id}/subdomains`, { subdomain: 'c' });
    await h.setStatus(d.id, 'ACTIVE');
    await h.call(p, 'POST', `/portal/domains/${d.id}/deactivate`);
    await h.call(p, 'POST', `/portal/domains/${d.id}/activate`);
    await h.call(p, 'DELETE', `/portal/domains/${d.id}`);

    const rows = await h.outbox(p.id);
    expect(rows.map((r) => r.message.version)).toEqual(rows.map((_r, i) => i + 1));
    expect(new Set(rows.map((r) => r.message.aggregate_id))).toEqual(new Set([d.id]));
    const changes = rows
      .filter((r) => r.routing_key === 'domain.changed')
      .map((r) => domainChangedEventSchema.parse(r.message.payload).params);
    expect(changes.map((c) => [c.change, c.domain.status, c.domain.company_name, c.domain.subdomains])).toEqual([
      ['created', 'NEW', `Company of ${host}`, [`a.${host}`, `b.${host}`]],
      ['invited', 'INVITED', `Company of ${host}`, [`a.${host}`, `b.${host}`]],
      ['updated', 'INVITED', 'Renamed Co', [`a.${host}`, `b.${host}`]],
      ['subdomains', 'INVITED', 'Renamed Co', [`a.${host}`, `b.${host}`, `c.${host}`]],
      ['deactivated', 'INACTIVE', 'Renamed Co', [`a.${host}`, `b.${host}`, `c.${host}`]],
      ['activated', 'ACTIVE', 'Renamed Co', [`a.${host}`, `b.${host}`, `c.${host}`]],
    ]);
    expect(rows[rows.length - 1].routing_key).toBe('domain.deleted');
  });
});
