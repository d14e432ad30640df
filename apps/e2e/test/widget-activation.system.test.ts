import { randomUUID } from 'node:crypto';
import type { Client } from 'pg';
import { startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from '@platform/launcher';
import { waitFor } from '@platform/testing';
import { subscriptionCopied } from './support/settled-domain';
import { sharedSystem, type Partner, type System } from './support/system';

const SPEC_PROPERTY_DATA = [
  'id',
  'name',
  'description',
  'status',
  'widget_font',
  'widget_position',
  'border_radius',
  'primary_color',
  'text_color',
  'has_scripts',
  'has_dsar',
  'has_docs',
  'has_accessibility',
  'has_accessibility_icon',
  'display_dpo',
  'display_company',
  'has_welcome_message',
  'has_continuous_scanning',
  'company_id',
  'activated_at',
  'created_at',
];

interface DomainDetail {
  status: string;
  is_active: boolean;
  activated_at: string | null;
}

// The first page view activates a domain exactly once (the spec's States and transitions), through the public views endpoint.
describe('activation by the widget', () => {
  let sys: System;
  let partner: Partner;
  let db: Client;
  let receiver: WebhookReceiver;
  let hookPath: string;

  /** A new domain, once billing-svc's subscription has been copied onto its row (the last write a create causes). */
  const createDomain = async () => {
    const host = `activate-${randomUUID().slice(0, 8)}.example.com`;
    const res = await sys.arrange(partner, 'POST', '/portal/domains', {
      domain: host,
      company_name: `Activate ${host}`,
      account_email: `owner@${host}`,
    });
    const d = res.body.result as { id: string; hostname: string; instance_property_id: string };
    await subscriptionCopied(db, d.id);
    return d;
  };
  const view = (propertyId: string, origin: string) =>
    sys.call(undefined, 'POST', `/widget/v1/properties/${propertyId}/views`, { url: `${origin}/page` }, { origin });
  const detail = async (domainId: string) =>
    (await sys.arrange(partner, 'GET', `/portal/domains/${domainId}`)).body.result as DomainDetail;
  /** Row versions of the domain and property (xmin changes on any UPDATE, even one that changes no value) and its outbox events. */
  const footprint = async (domainId: string) => {
    const rows = await db.query(
      `SELECT d.status, d.activated_at, d.xmin::text AS domain_xmin, p.xmin::text AS property_xmin,
              (SELECT count(*)::int FROM domains.outbox o WHERE o.message->>'aggregate_id' = $1::text) AS events
         FROM domains.domains d JOIN domains.properties p ON p.id = d.property_id WHERE d.id = $1::uuid`,
      [domainId],
    );
    return rows.rows[0] as {
      status: string;
      activated_at: Date | null;
      domain_xmin: string;
      property_xmin: string;
      events: number;
    };
  };
  const outboxCount = async (event: string, propertyId: string) =>
    (
      await db.query(
        `SELECT count(*)::int AS n FROM domains.outbox WHERE routing_key = $1 AND message->'payload'->'params'->>'property_id' = $2`,
        [event, propertyId],
      )
    ).rows[0].n as number;
  const hooks = (event: string, match: (p: Payload) => boolean) =>
    receiver.received
      .filter((r) => r.path === hookPath)
      .map(payloadOf)
      .filter((p) => p.event === event && match(p));
  const payloadOf = (r: ReceivedWebhook) => JSON.parse(r.body) as Payload;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    sys = await sharedSystem();
    partner = await sys.partner();
    db = await sys.db();
    hookPath = '/activation';
    await sys.arrange(partner, 'POST', '/portal/webhooks', {
      url: `${receiver.url}${hookPath}`,
      events: ['property.activated', 'domain.deactivated'],
    });
  });
  afterAll(async () => {
    await sys?.close();
    await receiver?.close();
  });

  it('when 50 first views arrive at once from the hostname and its subdomains, then the domain is ACTIVE, activated_at is set once, and exactly one property.activated is written and delivered', async () => {
    const d = await createDomain();
    const origins = Array.from({ length: 50 }, (_, i) =>
      i % 2 === 0 ? `https://${d.hostname}` : `https://www${i}.${d.hostname}:8443`,
    );
    const answers = await Promise.all(origins.map((origin) => view(d.instance_property_id, origin)));
    expect(answers.map((a) => a.status)).toEqual(origins.map(() => 202));
    expect(answers[0].body).toEqual({ result: { accepted: true } });

    const after = await detail(d.id);
    expect(after).toMatchObject({ status: 'ACTIVE', is_active: true });
    expect(after.activated_at).not.toBeNull();
    expect(await outboxCount('property.activated', d.instance_property_id)).toBe(1);
    const [hook] = await waitFor(
      () => {
        const got = hooks('property.activated', (p) => p.params.property_id === d.instance_property_id);
        return got.length > 0 ? got : undefined;
      },
      { timeoutMs: 15_000, what: 'property.activated webhook' },
    );
    expect(hook.params).toEqual({ property_id: d.instance_property_id, domain_name: d.hostname });
    expect(hook.entity?.kind).toBe('property');
    expect(Object.keys(hook.entity!.data).sort()).toEqual([...SPEC_PROPERTY_DATA].sort());
    expect(hook.entity!.data.activated_at).toBe(after.activated_at);

    // A later webhook of the same domain has arrived: a second property.activated would have too.
    await sys.arrange(partner, 'POST', `/portal/domains/${d.id}/deactivate`);
    await waitFor(() => hooks('domain.deactivated', (p) => p.params.domain_id === d.id)[0], {
      timeoutMs: 15_000,
      what: 'domain.deactivated webhook',
    });
    expect(hooks('property.activated', (p) => p.params.property_id === d.instance_property_id)).toHaveLength(1);
  });

  it('when an INVITED domain gets a view with no body, then 400 and it stays INVITED; its first view from a page turns it ACTIVE', async () => {
    const d = await createDomain();
    await sys.arrange(partner, 'POST', `/portal/domains/${d.id}/invite`, {});
    expect((await detail(d.id)).status).toBe('INVITED');
    const bodiless = await sys.call(
      undefined,
      'POST',
      `/widget/v1/properties/${d.instance_property_id}/views`,
      undefined,
      { origin: `https://${d.hostname}` },
    );
    expect(bodiless.status).toBe(400);
    expect((await detail(d.id)).status).toBe('INVITED');
    expect((await view(d.instance_property_id, `https://${d.hostname}`)).status).toBe(202);
    expect((await detail(d.id)).status).toBe('ACTIVE');
  });

  it('when an ACTIVE domain is viewed again, then nothing is written: no row version changes and no event', async () => {
    const d = await createDomain();
    await view(d.instance_property_id, `https://${d.hostname}`);
    const before = await footprint(d.id);
    expect(before.status).toBe('ACTIVE');
    for (let i = 0; i < 10; i++) expect((await view(d.instance_property_id, `https://${d.hostname}`)).status).toBe(202);
    expect(await footprint(d.id)).toEqual(before);
  });

  it('after activation, deactivate and activate work as the spec says; an INACTIVE domain stays INACTIVE on a view; activated_at never moves', async () => {
    const d = await createDomain();
    await view(d.instance_property_id, `https://${d.hostname}`);
    const activatedAt = (await detail(d.id)).activated_at;
    expect(activatedAt).not.toBeNull();

    expect((await sys.call(partner, 'POST', `/portal/domains/${d.id}/deactivate`)).status).toBe(200);
    expect(await detail(d.id)).toMatchObject({ status: 'INACTIVE', is_active: false, activated_at: activatedAt });
    const listed = async () =>
      ((await sys.arrange(partner, 'GET', `/portal/domains?search=${d.hostname}`)).body.result as { id: string }[]).map(
        (x) => x.id,
      );
    expect(await listed()).toEqual([]);

    const inactive = await footprint(d.id);
    expect((await view(d.instance_property_id, `https://${d.hostname}`)).status).toBe(202);
    expect(await footprint(d.id)).toEqual(inactive);

    expect((await sys.call(partner, 'POST', `/portal/domains/${d.id}/activate`)).status).toBe(200);
    expect(await detail(d.id)).toMatchObject({ status: 'ACTIVE', is_active: true, activated_at: activatedAt });
    expect(await listed()).toEqual([d.id]);
    expect(await outboxCount('property.activated', d.instance_property_id)).toBe(1);
  });
});

interface Payload {
  event: string;
  params: Record<string, unknown>;
  entity?: { kind: string; data: Record<string, unknown> };
}
