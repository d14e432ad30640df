import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Client } from 'pg';
import { Webhook } from 'standardwebhooks';
import {
  EVENT_NAMES,
  PUBLIC_EVENT_NAMES,
  EVENT_REGISTRY,
  exampleEventPayload,
  type EventPayload,
} from '@platform/contracts';
import { startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from '@platform/launcher';
import { publishEvents, testInfra, waitFor } from '@platform/testing';
import { envelope, sharedSystem, type Partner, type System } from './support/system';

const SPEC_CREATED_PARAMS = [
  'domain_id',
  'domain',
  'action',
  'source',
  'status',
  'country',
  'state',
  'city',
  'address',
  'postal_code',
  'vat_number',
  'product_id',
  'price_list_id',
  'has_docs',
  'has_dsar',
  'has_scripts',
  'has_accessibility',
  'display_dpo',
  'display_company',
  'send_intro',
  'company_name',
  'account_email',
  'company_trade_name',
  'account_first_name',
  'account_last_name',
  'merchant_id',
  'subscription_id',
];
const SPEC_DOMAIN_DATA = [
  'id',
  'hostname',
  'status',
  'has_scripts',
  'has_dsar',
  'has_docs',
  'has_accessibility',
  'display_dpo',
  'display_company',
  'instance_property_id',
  'instance_company_id',
  'instance',
  'created_at',
  'updated_at',
];
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
const sorted = (keys: string[]) => [...keys].sort();

// On the shared platform, whose webhook retries are scaled down (FAST_WEBHOOKS): attempts at about 0, 300 ms and 600 ms; then failed.
describe('webhooks through the gateway, to real local receivers', () => {
  let sys: System;
  let partner: Partner;
  let other: Partner;
  let receiver: WebhookReceiver;
  let db: Client;
  let paths = 0;

  /** A fresh receiver path and an endpoint of `who` pointing at it. */
  const endpoint = async (who: Partner = partner, extra: Record<string, unknown> = {}) => {
    const at = `/hook-${++paths}`;
    const res = await sys.arrange(who, 'POST', '/portal/webhooks', { url: `${receiver.url}${at}`, ...extra });
    return { ...(res.body.result as { id: string; secret: string; url: string }), path: at };
  };
  const receivedAt = (at: string) => receiver.received.filter((r) => r.path === at);
  const waitForHooks = (at: string, count: number, what = `${count} webhook(s) at ${at}`) =>
    waitFor(() => (receivedAt(at).length >= count ? receivedAt(at) : undefined), { timeoutMs: 15_000, what });
  const payloadOf = (r: ReceivedWebhook) =>
    JSON.parse(r.body) as {
      event: string;
      params: Record<string, unknown>;
      entity?: { kind: string; data: Record<string, unknown> };
    };
  const verify = (secret: string, r: ReceivedWebhook) =>
    new Webhook(secret).verify(r.body, r.headers as Record<string, string>);
  const createDomain = async (who: Partner = partner, extra: Record<string, unknown> = {}) => {
    const host = `hooks-${randomUUID().slice(0, 8)}.example.com`;
    const res = await sys.arrange(who, 'POST', '/portal/domains', {
      domain: host,
      company_name: `Hooks ${host}`,
      account_email: `owner@${host}`,
      ...extra,
    });
    return res.body.result as {
      id: string;
      hostname: string;
      instance_property_id: string;
      instance_company_id: string;
    };
  };
  const deliveries = async (endpointId: string, query = '') =>
    (await sys.arrange(partner, 'GET', `/portal/webhooks/${endpointId}/deliveries${query}`)).body.result as Delivery[];
  const deliveryOf = (endpointId: string, id: string) =>
    sys
      .arrange(partner, 'GET', `/portal/webhooks/${endpointId}/deliveries/${id}`)
      .then((r) => r.body.result as Delivery);

  /** Publishes an event the way domains-svc's relay does (for events no service emits yet). */
  const publish = async (partnerId: string, payload: EventPayload) =>
    publishEvents((await testInfra()).amqpUrl, sys.exchange, partnerId, [payload]);

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    sys = await sharedSystem();
    [partner, other] = await Promise.all([sys.partner(), sys.partner()]);
    db = await sys.db();
  });
  afterAll(async () => {
    await sys?.close();
    await receiver?.close();
  });

  it("when event types are asked for, then every public event (the spec's and the data subject requests') is listed with a description, its body's JSON Schema and an example that its schema accepts, and no internal one", async () => {
    const res = await sys.call(partner, 'GET', '/portal/webhooks/event-types');
    expect(res.status).toBe(200);
    const types = res.body.result as {
      name: string;
      description: string;
      example: { event: string; params: Record<string, unknown> };
      schema: { type: string; properties: Record<string, { const?: string }>; required: string[] };
    }[];
    expect(types.map((t) => t.name)).toEqual([
      'domain.created',
      'domain.deactivated',
      'domain.deleted',
      'property.updated',
      'property.activated',
      'property.activation.reminder.day2',
      'property.activation.reminder.day7',
      'property.activation.reminder.day14',
      'property.activation.reminder.day30',
      'data_request.verified',
      'data_request.overdue',
      'data_request.closed',
    ]);
    for (const t of types) {
      expect(t.description.length).toBeGreaterThan(10);
      expect(t.example.event).toBe(t.name);
      expect(EVENT_REGISTRY[t.name as 'domain.created'].schema.safeParse(t.example).success).toBe(true);
      // The schema describes this event's body: its name, and every field the example carries.
      expect(t.schema.type).toBe('object');
      expect(t.schema.properties.event.const).toBe(t.name);
      expect(t.schema.required).toEqual(expect.arrayContaining(['event', 'params']));
      expect(Object.keys(t.schema.properties)).toEqual(expect.arrayContaining(Object.keys(t.example)));
    }
    expect(EVENT_NAMES.filter((n) => !PUBLIC_EVENT_NAMES.includes(n))).toEqual(
      expect.arrayContaining(['domain.changed']),
    );
  });

  it('when an endpoint is created, then it answers 201 with a whsec_ secret of 32 random bytes shown only then, and list, get, update and delete work', async () => {
    const created = await sys.call(partner, 'POST', '/portal/webhooks', {
      url: `${receiver.url}/crud`,
      events: ['domain.created', 'domain.created'],
      description: 'CRM sync',
    });
    expect(created.status).toBe(201);
    const ep = created.body.result;
    expect(ep).toMatchObject({
      url: `${receiver.url}/crud`,
      events: ['domain.created'],
      description: 'CRM sync',
      enabled: true,
      disabled_reason: null,
    });
    expect(ep.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(ep.secret.slice(6), 'base64')).toHaveLength(32);
    const second = await endpoint();
    expect(second.secret).not.toBe(ep.secret);

    const got = await sys.call(partner, 'GET', `/portal/webhooks/${ep.id}`);
    expect(got.body.result).toEqual({ ...ep, secret: undefined, updated_at: expect.any(String) });
    expect(got.text).not.toContain('whsec_');
    const stored = await db.query(`SELECT secret FROM webhooks.endpoints WHERE id = $1`, [ep.id]);
    expect(stored.rows[0].secret).not.toContain(ep.secret.slice(6, 20));

    const list = await sys.call(partner, 'GET', '/portal/webhooks?limit=1');
    expect(list.body).toMatchObject({ meta: { current_page: 1, next_page: 2 }, result: [{ id: second.id }] });
    expect(list.text).not.toContain('whsec_');

    const updated = await sys.call(partner, 'PUT', `/portal/webhooks/${ep.id}`, {
      events: null,
      description: 'All events',
      enabled: false,
    });
    expect(updated.status).toBe(200);
    expect(updated.body.result).toMatchObject({
      events: null,
      description: 'All events',
      enabled: false,
      disabled_reason: 'manual',
      url: `${receiver.url}/crud`,
    });

    expect((await sys.call(partner, 'DELETE', `/portal/webhooks/${ep.id}`)).body).toEqual({
      result: { deleted: true },
    });
    expect((await sys.call(partner, 'GET', `/portal/webhooks/${ep.id}`)).body).toEqual(
      envelope('RESOURCE.NOT_FOUND', 404),
    );
  });

  it('when a create is retried with its Idempotency-Key, then the same endpoint and secret come back, and webhook-svc keeps neither the key nor the secret in the clear', async () => {
    const key = `idem-${randomUUID()}`;
    const body = { url: `${receiver.url}/idempotent` };
    const first = await sys.call(partner, 'POST', '/portal/webhooks', body, { 'Idempotency-Key': key });
    const again = await sys.call(partner, 'POST', '/portal/webhooks', body, { 'Idempotency-Key': key });
    expect(first.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    const secret = first.body.result.secret as string;
    const rows = await db.query(
      `SELECT key, encode(body, 'escape') AS body FROM webhooks.idempotency_keys WHERE partner_id = $1`,
      [partner.id],
    );
    expect(rows.rows.length).toBeGreaterThan(0);
    for (const row of rows.rows) {
      expect(row.key).not.toBe(key);
      expect(row.body ?? '').not.toContain(secret.slice(6, 30));
    }
  });

  it('when the body is bad, then 400 with data.issues naming each field, and nothing is created', async () => {
    const endpointsOfPartner = async () =>
      (await db.query(`SELECT count(*)::int AS n FROM webhooks.endpoints WHERE partner_id = $1`, [partner.id])).rows[0]
        .n;
    const before = await endpointsOfPartner();
    const cases: [unknown, string][] = [
      [{}, 'body.url'],
      [{ url: 'not a url' }, 'body.url'],
      [{ url: 'ftp://hooks.example.com/x' }, 'body.url'],
      [{ url: 'javascript:alert(1)' }, 'body.url'],
      [{ url: `${receiver.url}/x`, events: 'domain.created' }, 'body.events'],
      [{ url: `${receiver.url}/x`, events: ['domain.created', 'domain.exploded'] }, 'body.events.1'],
      [{ url: `${receiver.url}/x`, events: ['domain.changed'] }, 'body.events.0'],
      [{ url: `${receiver.url}/x`, events: [] }, 'body.events'],
      [{ url: `${receiver.url}/x`, description: 'x'.repeat(501) }, 'body.description'],
    ];
    for (const [body, field] of cases) {
      const res = await sys.call(partner, 'POST', '/portal/webhooks', body);
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
      expect(res.body).toEqual(envelope('VALIDATION.INVALID', 400));
      expect(res.body.error.data.issues).toEqual(expect.arrayContaining([expect.objectContaining({ path: field })]));
    }
    const ep = await endpoint();
    const badUpdate = await sys.call(partner, 'PUT', `/portal/webhooks/${ep.id}`, { url: 'gopher://x.example.com/' });
    expect(badUpdate.body.error.data.issues).toEqual([expect.objectContaining({ path: 'body.url' })]);
    expect(await endpointsOfPartner()).toBe(before + 1);
  });

  it('when domains are created, updated, deactivated and deleted, then each event arrives signed (verified with standardwebhooks) with exactly the spec payload', async () => {
    const ep = await endpoint();
    const d = await createDomain(partner, {
      country: 'DE',
      city: 'Berlin',
      company_trade_name: 'Hooks',
      account_first_name: 'Ada',
      has_dsar: true,
    });
    await sys.arrange(partner, 'PUT', `/portal/domains/${d.id}`, { primary_color: '#123456' });
    // Activation comes from the widget (not built yet): arranged in its table.
    await db.query(
      `UPDATE domains.domains SET status = 'ACTIVE', is_active = true, activated_at = now() WHERE id = $1`,
      [d.id],
    );
    await sys.arrange(partner, 'POST', `/portal/domains/${d.id}/deactivate`);
    await sys.arrange(partner, 'DELETE', `/portal/domains/${d.id}`);
    const hooks = await waitForHooks(ep.path, 4);
    const byEvent = new Map(hooks.map((h) => [payloadOf(h).event, h]));
    expect([...byEvent.keys()].sort()).toEqual([
      'domain.created',
      'domain.deactivated',
      'domain.deleted',
      'property.updated',
    ]);
    for (const h of hooks) {
      expect(h.method).toBe('POST');
      expect(h.headers['content-type']).toBe('application/json');
      expect(verify(ep.secret, h)).toEqual(JSON.parse(h.body));
      expect(Object.keys(JSON.parse(h.body)).sort()).toEqual(
        payloadOf(h).entity ? ['entity', 'event', 'params'] : ['event', 'params'],
      );
    }

    const created = payloadOf(byEvent.get('domain.created')!);
    // Every spec param; the optional ones not given (state, address, ...) are left out.
    expect(sorted(Object.keys(created.params))).toEqual(
      sorted(
        SPEC_CREATED_PARAMS.filter(
          (k) => !['state', 'address', 'postal_code', 'vat_number', 'account_last_name', 'merchant_id'].includes(k),
        ),
      ),
    );
    expect(created.params).toMatchObject({
      domain_id: d.id,
      domain: d.hostname,
      action: 'CREATE_SILENT',
      status: 'NEW',
      country: 'DE',
      city: 'Berlin',
      company_trade_name: 'Hooks',
      account_first_name: 'Ada',
      has_dsar: true,
      company_name: `Hooks ${d.hostname}`,
      account_email: `owner@${d.hostname}`,
      product_id: expect.any(Number),
      price_list_id: expect.any(Number),
      subscription_id: expect.any(String),
      send_intro: expect.any(Boolean),
    });
    expect(created.entity).toEqual({
      kind: 'domain',
      data: expect.objectContaining({ id: d.id, hostname: d.hostname, instance_property_id: d.instance_property_id }),
    });
    expect(sorted(Object.keys(created.entity!.data))).toEqual(sorted(SPEC_DOMAIN_DATA));

    const updated = payloadOf(byEvent.get('property.updated')!);
    expect(updated.params).toEqual({ property_id: d.instance_property_id, primary_color: '#123456' });
    expect(updated.entity!.kind).toBe('property');
    expect(sorted(Object.keys(updated.entity!.data))).toEqual(sorted(SPEC_PROPERTY_DATA));

    const deactivated = payloadOf(byEvent.get('domain.deactivated')!);
    expect(deactivated.params).toEqual({ domain: d.hostname, domain_id: d.id });
    expect(sorted(Object.keys(deactivated.entity!.data))).toEqual(sorted([...SPEC_DOMAIN_DATA, 'has_dsara']));
    expect(deactivated.entity!.data).toMatchObject({ has_dsar: true, has_dsara: true, status: 'INACTIVE' });

    const deleted = payloadOf(byEvent.get('domain.deleted')!);
    expect(deleted).toEqual({
      event: 'domain.deleted',
      params: {
        id: d.id,
        domain: d.hostname,
        property_id: d.instance_property_id,
        company_id: d.instance_company_id,
        subscriptions: expect.any(Array),
      },
    });

    // The delivery log has each, with the webhook-id it was sent with (a worker records results
    // in batches just after the answers, so the receiver can see a request before the log does).
    const log = await waitFor(
      async () => {
        const entries = await deliveries(ep.id);
        return entries.length === hooks.length && entries.every((x) => x.status !== 'pending') ? entries : undefined;
      },
      { what: 'every delivery recorded' },
    );
    expect(log.map((x) => x.id).sort()).toEqual(hooks.map((h) => h.headers['webhook-id']).sort());
    expect(
      log.every((x) => x.status === 'succeeded' && x.attempts.length === 1 && x.attempts[0].status_code === 204),
    ).toBe(true);
  });

  it('when property.activated and the reminders are published as domains-svc will, then they reach the endpoint unchanged, with no change to webhook-svc', async () => {
    const ep = await endpoint();
    const names = [
      'property.activated',
      'property.activation.reminder.day2',
      'property.activation.reminder.day7',
      'property.activation.reminder.day14',
      'property.activation.reminder.day30',
    ] as const;
    for (const name of names) await publish(partner.id, exampleEventPayload(name));
    const hooks = await waitForHooks(ep.path, names.length);
    for (const h of hooks)
      expect(verify(ep.secret, h)).toEqual(exampleEventPayload(payloadOf(h).event as (typeof names)[number]));
    expect(hooks.map((h) => payloadOf(h).event).sort()).toEqual([...names].sort());
  });

  it('when the receiver answers 500 twice and then 200, then it sees the same webhook-id and body three times, and the log shows each attempt', async () => {
    const ep = await endpoint();
    receiver.route(ep.path, (_r, n) => (n < 2 ? { status: 500, body: `boom ${n}` } : { status: 200, body: 'ok' }));
    const sent = await sys.arrange(partner, 'POST', `/portal/webhooks/${ep.id}/test`, { event: 'domain.deleted' });
    expect(sent.status).toBe(202);
    const hooks = await waitForHooks(ep.path, 3);
    expect(new Set(hooks.map((h) => h.headers['webhook-id']))).toEqual(new Set([sent.body.result.id]));
    expect(new Set(hooks.map((h) => h.body)).size).toBe(1);
    expect(new Set(hooks.map((h) => h.headers['webhook-timestamp'])).size).toBeGreaterThanOrEqual(2);
    for (const h of hooks) expect(verify(ep.secret, h)).toEqual(exampleEventPayload('domain.deleted'));
    const delivery = await waitFor(async () => {
      const x = await deliveryOf(ep.id, sent.body.result.id);
      return x.status === 'succeeded' ? x : undefined;
    });
    expect(delivery.attempts.map((a) => [a.status_code, a.error, a.response_body])).toEqual([
      [500, null, 'boom 0'],
      [500, null, 'boom 1'],
      [200, null, 'ok'],
    ]);
    expect(delivery.attempt_count).toBe(3);
  });

  it('when the secret is rotated, then deliveries carry two signatures (old and new) until the window ends, then only the new one', async () => {
    const ep = await endpoint();
    const rotated = await sys.arrange(partner, 'POST', `/portal/webhooks/${ep.id}/rotate-secret`, {
      previous_secret_expires_in: 2,
    });
    const fresh = rotated.body.result.secret as string;
    expect(fresh).toMatch(/^whsec_/);
    expect(fresh).not.toBe(ep.secret);
    expect(rotated.body.result.previous_secret_expires_at).toEqual(expect.any(String));
    await sys.arrange(partner, 'POST', `/portal/webhooks/${ep.id}/test`);
    const [during] = await waitForHooks(ep.path, 1);
    expect((during.headers['webhook-signature'] as string).split(' ')).toHaveLength(2);
    expect(verify(fresh, during)).toEqual(JSON.parse(during.body));
    expect(verify(ep.secret, during)).toEqual(JSON.parse(during.body));

    // After the window: send again until a delivery carries one signature (the window is 2 s).
    const after = await waitFor(
      async () => {
        const seen = receivedAt(ep.path).length;
        await sys.arrange(partner, 'POST', `/portal/webhooks/${ep.id}/test`);
        const [latest] = (await waitForHooks(ep.path, seen + 1)).slice(-1);
        return (latest.headers['webhook-signature'] as string).split(' ').length === 1 ? latest : undefined;
      },
      { timeoutMs: 10_000, intervalMs: 200, what: 'a delivery with one signature' },
    );
    expect(verify(fresh, after)).toEqual(JSON.parse(after.body));
    expect(() => verify(ep.secret, after)).toThrow();
  });

  it('when an endpoint filters events or is disabled, then it gets only what it asked for, and nothing while disabled', async () => {
    const all = await endpoint();
    const onlyDeleted = await endpoint(partner, { events: ['domain.deleted'] });
    const disabled = await endpoint();
    await sys.arrange(partner, 'PUT', `/portal/webhooks/${disabled.id}`, { enabled: false });
    const d = await createDomain();
    await sys.arrange(partner, 'DELETE', `/portal/domains/${d.id}`);
    // The unfiltered endpoint getting both events means both fan-outs have committed.
    await waitFor(
      () =>
        receivedAt(all.path).filter((h) => JSON.stringify(payloadOf(h).params).includes(d.id)).length === 2 ||
        undefined,
      { what: 'both events' },
    );
    const filtered = await waitForHooks(onlyDeleted.path, 1);
    expect(filtered.map((h) => payloadOf(h).event)).toEqual(['domain.deleted']);
    expect((await deliveries(onlyDeleted.id)).map((x) => x.event)).toEqual(['domain.deleted']);
    expect(receivedAt(disabled.path)).toEqual([]);
    expect(await deliveries(disabled.id)).toEqual([]);
  });

  it('when the receiver redirects, then the redirect is not followed and the attempt is logged as redirect', async () => {
    const ep = await endpoint();
    receiver.route(ep.path, () => ({ status: 302, headers: { location: `${receiver.url}${ep.path}-target` } }));
    const sent = await sys.arrange(partner, 'POST', `/portal/webhooks/${ep.id}/test`);
    const delivery = await waitFor(async () => {
      const x = await deliveryOf(ep.id, sent.body.result.id);
      return x.attempts.length > 0 ? x : undefined;
    });
    expect(delivery.attempts[0]).toMatchObject({ status_code: 302, error: 'redirect' });
    expect(receivedAt(`${ep.path}-target`)).toEqual([]);
  });

  it('when every attempt fails, then the delivery ends failed; a manual retry and a recovery send it again with the same webhook-id', async () => {
    const ep = await endpoint();
    let healthy = false;
    receiver.route(ep.path, () => (healthy ? { status: 200 } : { status: 400, body: 'rejected' }));
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push((await sys.arrange(partner, 'POST', `/portal/webhooks/${ep.id}/test`)).body.result.id);
    await waitFor(async () => ((await deliveries(ep.id, '?status=failed')).length === 3 ? true : undefined), {
      timeoutMs: 15_000,
      what: 'three failed deliveries',
    });
    for (const id of ids)
      expect((await deliveryOf(ep.id, id)).attempts.map((a) => a.status_code)).toEqual([400, 400, 400]);

    healthy = true;
    const retried = await sys.call(partner, 'POST', `/portal/webhooks/${ep.id}/deliveries/${ids[0]}/retry`);
    expect(retried.status).toBe(202);
    await waitFor(async () => ((await deliveryOf(ep.id, ids[0])).status === 'succeeded' ? true : undefined), {
      what: 'the retried delivery to succeed',
    });

    const recovered = await sys.call(partner, 'POST', `/portal/webhooks/${ep.id}/recover`, {
      since: new Date(Date.now() - 60_000).toISOString(),
    });
    expect(recovered.body).toEqual({ result: { recovered: 2 } });
    await waitFor(async () => ((await deliveries(ep.id, '?status=succeeded')).length === 3 ? true : undefined), {
      what: 'the recovered deliveries to succeed',
    });
    const sentIds = receivedAt(ep.path).map((h) => h.headers['webhook-id']);
    for (const id of ids) expect(sentIds.filter((x) => x === id)).toHaveLength(4);
    expect((await deliveries(ep.id, '?event=domain.created&status=succeeded&limit=2')).length).toBe(2);
    expect((await sys.call(partner, 'GET', `/portal/webhooks/${ep.id}/deliveries?status=lost`)).status).toBe(400);
  });

  it('when an endpoint keeps failing, then its breaker opens and the next delivery waits unattempted instead of hammering it', async () => {
    const ep = await endpoint();
    receiver.route(ep.path, () => ({ status: 503 }));
    for (let i = 0; i < 5; i++) {
      const sent = await sys.arrange(partner, 'POST', `/portal/webhooks/${ep.id}/test`);
      await waitFor(async () =>
        (await deliveryOf(ep.id, sent.body.result.id)).attempts.length > 0 ? true : undefined,
      );
    }
    const held = (await sys.arrange(partner, 'POST', `/portal/webhooks/${ep.id}/test`)).body.result;
    const waiting = await waitFor(async () => {
      const x = await deliveryOf(ep.id, held.id);
      return x.next_attempt_at && Date.parse(x.next_attempt_at) - Date.parse(x.created_at) >= 2_000 ? x : undefined;
    });
    expect(waiting).toMatchObject({ status: 'pending', attempt_count: 0, attempts: [] });
    expect(receivedAt(ep.path).filter((h) => h.headers['webhook-id'] === held.id)).toEqual([]);
  });

  it('when the answer is large, then 20 KiB of it is kept in the log, marked truncated', async () => {
    const ep = await endpoint();
    receiver.route(ep.path, () => ({ status: 200, body: 'x'.repeat(100 * 1024) }));
    const sent = await sys.arrange(partner, 'POST', `/portal/webhooks/${ep.id}/test`);
    const delivery = await waitFor(async () => {
      const x = await deliveryOf(ep.id, sent.body.result.id);
      return x.status === 'succeeded' ? x : undefined;
    });
    expect(delivery.attempts[0]).toMatchObject({ status_code: 200, response_truncated: true });
    expect(delivery.attempts[0].response_body).toHaveLength(20 * 1024);
  });

  it('when an endpoint answers 410, then it is disabled at once and gets nothing more', async () => {
    const ep = await endpoint();
    receiver.route(ep.path, () => ({ status: 410 }));
    await sys.arrange(partner, 'POST', `/portal/webhooks/${ep.id}/test`);
    const disabled = await waitFor(async () => {
      const x = (await sys.arrange(partner, 'GET', `/portal/webhooks/${ep.id}`)).body.result;
      return x.enabled === false ? x : undefined;
    });
    expect(disabled.disabled_reason).toBe('gone');
    expect((await deliveries(ep.id))[0]).toMatchObject({ status: 'failed', attempt_count: 1 });
    // Nothing more: an event that reaches the partner's other endpoints does not reach it.
    const witness = await endpoint();
    const d = await createDomain();
    await waitFor(() => receivedAt(witness.path).some((h) => payloadOf(h).params.domain_id === d.id) || undefined, {
      what: 'the event at another endpoint',
    });
    expect(receivedAt(ep.path)).toHaveLength(1);
    expect(await deliveries(ep.id)).toHaveLength(1);
  });

  it("when another partner uses an endpoint or delivery id, then every webhook route answers 404, and it never receives the first partner's events", async () => {
    const mine = await endpoint();
    const theirs = await endpoint(other);
    const sent = await sys.arrange(partner, 'POST', `/portal/webhooks/${mine.id}/test`);
    const routes: [string, string, unknown?][] = [
      ['GET', `/portal/webhooks/${mine.id}`],
      ['PUT', `/portal/webhooks/${mine.id}`, { description: 'stolen' }],
      ['DELETE', `/portal/webhooks/${mine.id}`],
      ['POST', `/portal/webhooks/${mine.id}/rotate-secret`],
      ['POST', `/portal/webhooks/${mine.id}/test`],
      ['GET', `/portal/webhooks/${mine.id}/deliveries`],
      ['GET', `/portal/webhooks/${mine.id}/deliveries/${sent.body.result.id}`],
      ['POST', `/portal/webhooks/${mine.id}/deliveries/${sent.body.result.id}/retry`],
      ['POST', `/portal/webhooks/${mine.id}/recover`, { since: '2026-01-01T00:00:00Z' }],
      ['GET', `/portal/webhooks/${theirs.id}/deliveries/${sent.body.result.id}`],
      ['POST', `/portal/webhooks/${theirs.id}/deliveries/${sent.body.result.id}/retry`],
    ];
    for (const [method, url, body] of routes) {
      const res = await sys.call(other, method, url, body);
      expect({ method, url, status: res.status }).toEqual({ method, url, status: 404 });
      expect(res.body).toEqual(envelope('RESOURCE.NOT_FOUND', 404));
    }
    expect((await sys.arrange(partner, 'GET', `/portal/webhooks/${mine.id}`)).body.result.description).toBe('');
    expect((await sys.arrange(other, 'GET', '/portal/webhooks')).body.result.map((e: { id: string }) => e.id)).toEqual([
      theirs.id,
    ]);

    const d = await createDomain(partner);
    await waitFor(() => receivedAt(mine.path).some((h) => payloadOf(h).params.domain_id === d.id) || undefined, {
      what: "the first partner's event",
    });
    expect(receivedAt(theirs.path)).toEqual([]);
    expect((await sys.arrange(other, 'GET', `/portal/webhooks/${theirs.id}/deliveries`)).body.result).toEqual([]);
  });

  it('when a URL names a refused address form, then create and update answer 400 even with loopback allowed for development', async () => {
    const ep = await endpoint();
    for (const url of [
      'http://10.0.0.1/h',
      'http://169.254.169.254/latest/meta-data',
      'http://2130706433/h',
      'http://0x7f.0.0.1/h',
      'http://0177.0.0.1/h',
      'http://[fd00::1]/h',
      'http://metadata.google.internal/h',
    ]) {
      const created = await sys.call(partner, 'POST', '/portal/webhooks', { url });
      expect({ url, status: created.status }).toEqual({ url, status: 400 });
      const updated = await sys.call(partner, 'PUT', `/portal/webhooks/${ep.id}`, { url });
      expect({ url, status: updated.status, path: updated.body.error.data.issues[0].path }).toEqual({
        url,
        status: 400,
        path: 'body.url',
      });
    }
  });

  it('when the API reference is read, then every webhook operation is in /openapi.json with its success status', async () => {
    const doc = (await sys.call(undefined, 'GET', '/openapi.json')).body;
    expect(
      Object.keys(doc.paths['/portal/webhooks/{endpointId}/deliveries/{deliveryId}/retry'].post.responses),
    ).toContain('202');
    expect(Object.keys(doc.paths['/portal/webhooks'].post.responses)).toContain('201');
    for (const p of [
      '/portal/webhooks',
      '/portal/webhooks/event-types',
      '/portal/webhooks/{endpointId}',
      '/portal/webhooks/{endpointId}/rotate-secret',
      '/portal/webhooks/{endpointId}/test',
      '/portal/webhooks/{endpointId}/deliveries',
      '/portal/webhooks/{endpointId}/recover',
    ]) {
      expect(doc.paths[p]).toBeDefined();
    }
  });

  it('when an operator asks for webhook stats, then the queue depth, attempts per second, and due and failed deliveries per endpoint are shown', async () => {
    const ops = path.join(process.env.PLATFORM_DIST_DIR ?? path.resolve(process.cwd(), 'dist'), 'tools', 'ops.js');
    const { stdout } = await run(process.execPath, [ops, 'webhooks', 'stats', '--json', '--limit', '100'], {
      env: { ...process.env, DATABASE_URL: sys.databaseUrl, EVENTS_EXCHANGE: sys.exchange },
    });
    const stats = JSON.parse(stdout);
    expect(stats).toMatchObject({
      queue: `${sys.exchange}.webhook-svc`,
      queue_depth: expect.any(Number),
      due: expect.any(Number),
      failed: expect.any(Number),
    });
    expect(stats.attempts_per_second).toBeGreaterThan(0);
    // This suite's failed deliveries (the shared platform's other suites may have their own).
    const { rows } = await db.query(
      `SELECT d.endpoint_id, count(*)::int AS n FROM webhooks.deliveries d JOIN webhooks.endpoints e ON e.id = d.endpoint_id
        WHERE d.status = 'failed' AND e.partner_id = ANY($1) GROUP BY d.endpoint_id`,
      [[partner.id, other.id]],
    );
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows)
      expect(stats.endpoints.find((e: { id: string }) => e.id === row.endpoint_id)).toMatchObject({ failed: row.n });
  });
});

const run = promisify(execFile);

interface Delivery {
  id: string;
  created_at: string;
  next_attempt_at: string | null;
  event: string;
  status: string;
  attempt_count: number;
  attempts: {
    status_code: number | null;
    error: string | null;
    response_body: string | null;
    response_truncated: boolean;
  }[];
}
