import { randomUUID } from 'node:crypto';
import type { Client } from 'pg';
import { Webhook } from 'standardwebhooks';
import { EVENT_REGISTRY, type EventName } from '@platform/contracts';
import { startWebhookReceiver, type WebhookReceiver } from '@platform/launcher';
import { waitFor, type TestSmtpServer } from '@platform/testing';
import { startSystem, type OwnSystem, type Partner } from './support/system';

/** A short reminder day: day 2 at 1.2 s, day 7 at 4.2 s, day 14 at 8.4 s, day 30 at 18 s after a domain's creation. */
const DAY_MS = 600;
const REMINDERS = [
  'property.activation.reminder.day2',
  'property.activation.reminder.day7',
  'property.activation.reminder.day14',
  'property.activation.reminder.day30',
];

interface Payload {
  event: string;
  params: Record<string, string>;
}

// Two domains-svc processes run the reminder job on one database at the same time.
describe('activation reminders with two domains-svc instances and a short day', () => {
  let sys: OwnSystem;
  let partner: Partner;
  let receiver: WebhookReceiver;
  let secret: string;
  let db: Client;
  let second: { adminUrl: string };
  const hookPath = '/reminders';

  const createDomain = async (firstName?: string) => {
    const host = `remind-${randomUUID().slice(0, 8)}.example.com`;
    const res = await sys.arrange(partner, 'POST', '/portal/domains', {
      domain: host,
      company_name: `Remind ${host}`,
      account_email: `owner@${host}`,
      ...(firstName ? { account_first_name: firstName } : {}),
    });
    return res.body.result as { id: string; hostname: string; instance_property_id: string; privacy_widget: string };
  };
  const view = (propertyId: string, hostname: string) =>
    sys.call(
      undefined,
      'POST',
      `/widget/v1/properties/${propertyId}/views`,
      { url: `https://${hostname}/page` },
      { origin: `https://${hostname}` },
    );
  const hooksOf = (propertyId: string) =>
    receiver.received
      .filter((r) => r.path === hookPath)
      .map((r) => ({ r, payload: JSON.parse(r.body) as Payload }))
      .filter(({ payload }) => payload.params.property_id === propertyId);
  const eventsOf = (propertyId: string) => hooksOf(propertyId).map(({ payload }) => payload.event);
  const createdAt = async (propertyId: string) =>
    (
      (await db.query('SELECT created_at FROM domains.properties WHERE id = $1', [propertyId])).rows[0]
        .created_at as Date
    ).getTime();
  const reminderRuns = async (adminUrl: string) => {
    const text = await (await fetch(`${adminUrl}/metrics`)).text();
    const line = text
      .split('\n')
      .find(
        (l) =>
          l.startsWith('job_runs_total{') && l.includes('job="activation-reminders"') && l.includes('outcome="ok"'),
      );
    return line ? Number(line.split(' ').pop()) : 0;
  };

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    sys = await startSystem({
      ACTIVATION_REMINDER_DAY_MS: String(DAY_MS),
      ACTIVATION_APPROVAL_URL: 'https://partner.test/approve/{property_id}',
    });
    second = await sys.platform.startInstance('domains-svc');
    partner = await sys.partner();
    db = await sys.db();
    const ep = await sys.arrange(partner, 'POST', '/portal/webhooks', {
      url: `${receiver.url}${hookPath}`,
      events: REMINDERS,
    });
    secret = (ep.body.result as { secret: string }).secret;
  });
  afterAll(async () => {
    await sys?.close();
    await receiver?.close();
  });

  it('when properties stay inactive, are activated or deleted, then each inactive one gets each reminder once, in order, with the spec params and the owner e-mails; the others none after', async () => {
    const inactive = await Promise.all([createDomain('Ada'), createDomain(), createDomain('Grace')]);
    // Activated and deleted before day 2 (1.2 s after creation), side by side.
    const early = Date.now();
    const [activatedEarly, deletedEarly] = await Promise.all([
      createDomain().then(async (d) => {
        expect((await view(d.instance_property_id, d.hostname)).status).toBe(202);
        return d;
      }),
      createDomain().then(async (d) => {
        expect((await sys.arrange(partner, 'DELETE', `/portal/domains/${d.id}`)).body).toEqual({
          result: { deleted: true },
        });
        return d;
      }),
    ]);
    // The premise: both happened before their day 2.
    expect(Date.now() - early).toBeLessThan(2 * DAY_MS);
    const activatedLater = await createDomain();

    // Activated after its day-2 reminder reached the receiver, before day 7.
    await waitFor(() => (eventsOf(activatedLater.instance_property_id).length > 0 ? true : undefined), {
      timeoutMs: 10_000,
      what: 'the day-2 reminder of the property activated later',
    });
    expect((await view(activatedLater.instance_property_id, activatedLater.hostname)).status).toBe(202);

    for (const d of inactive) {
      await waitFor(() => (eventsOf(d.instance_property_id).length >= 4 ? true : undefined), {
        timeoutMs: 40_000,
        what: `the four reminders of ${d.hostname}`,
      });
    }
    // A few more days pass: nothing more comes for anyone.
    const quiet = Date.now() + 4 * DAY_MS;
    await waitFor(() => (Date.now() > quiet ? true : undefined), {
      timeoutMs: 10_000,
      intervalMs: 100,
      what: 'four more days',
    });

    for (const d of inactive) {
      const hooks = hooksOf(d.instance_property_id);
      expect(hooks.map(({ payload }) => payload.event)).toEqual(REMINDERS);
      const created = await createdAt(d.instance_property_id);
      for (const [i, { r, payload }] of hooks.entries()) {
        expect(new Webhook(secret).verify(r.body, r.headers as Record<string, string>)).toEqual(payload);
        expect(EVENT_REGISTRY[payload.event as EventName].schema.parse(payload)).toEqual(payload);
        expect(payload.params).toEqual({
          property_id: d.instance_property_id,
          email: `owner@${d.hostname}`,
          ...(d === inactive[0] ? { first_name: 'Ada' } : d === inactive[2] ? { first_name: 'Grace' } : {}),
          website_url: `https://${d.hostname}`,
          domain_name: d.hostname,
          widget_embed_code: d.privacy_widget,
          approval_url: `https://partner.test/approve/${d.instance_property_id}`,
        });
        // Not before its day.
        expect(r.receivedAt).toBeGreaterThanOrEqual(created + [2, 7, 14, 30][i] * DAY_MS);
      }
    }
    expect(eventsOf(activatedEarly.instance_property_id)).toEqual([]);
    expect(eventsOf(deletedEarly.instance_property_id)).toEqual([]);
    expect(eventsOf(activatedLater.instance_property_id)).toEqual(REMINDERS.slice(0, 1));

    // The owners' e-mails, one per reminder, in the mail catcher.
    const smtp = sys.smtp as TestSmtpServer;
    for (const d of inactive) {
      await waitFor(
        () =>
          smtp.messages.filter((m) => m.to.includes(`owner@${d.hostname}`) && m.subject.startsWith('Reminder'))
            .length >= 4
            ? true
            : undefined,
        {
          timeoutMs: 15_000,
          what: `the four reminder e-mails to owner@${d.hostname}`,
        },
      );
      const mails = smtp.messages.filter(
        (m) => m.to.includes(`owner@${d.hostname}`) && m.subject.startsWith('Reminder'),
      );
      expect(mails).toHaveLength(4);
      expect(mails.map((m) => m.decoded.match(/(\d+) days after/)?.[1]).sort()).toEqual(['14', '2', '30', '7']);
    }
    expect(
      smtp.messages.filter(
        (m) =>
          m.subject.startsWith('Reminder') &&
          [activatedEarly, deletedEarly].some((d) => m.to.includes(`owner@${d.hostname}`)),
      ),
    ).toEqual([]);

    // Both instances ran the job all along.
    expect(await reminderRuns(sys.platform.adminUrls['domains-svc'])).toBeGreaterThan(10);
    expect(await reminderRuns(second.adminUrl)).toBeGreaterThan(10);
  });
});
