import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Client } from 'pg';
import { Webhook } from 'standardwebhooks';
import { EVENT_REGISTRY, type EventName } from '@platform/contracts';
import { startWebhookReceiver, type WebhookReceiver } from '@platform/launcher';
import { waitFor, type TestSmtpServer } from '@platform/testing';
import { startSystem, type OwnSystem, type Partner } from './support/system';

/**
 * The reminders' clock is the test's (ACTIVATION_REMINDER_CLOCK_FILE): a reminder falls due only
 * when the test moves that clock past its day, never because real time passed. The day is short
 * only so the job looks often (every tenth of a day).
 */
const DAY_MS = 2_000;
const DAYS = [2, 7, 14, 30];
const REMINDERS = DAYS.map((day) => `property.activation.reminder.day${day}`);

interface Payload {
  event: string;
  params: Record<string, string>;
}

// Two domains-svc processes run the reminder job on one database at the same time.
describe('activation reminders with two domains-svc instances, on a clock the test moves', () => {
  let sys: OwnSystem;
  let partner: Partner;
  let receiver: WebhookReceiver;
  let secret: string;
  let db: Client;
  let second: { adminUrl: string };
  let clockDir: string;
  const hookPath = '/reminders';

  /** Sets the reminders' "now" in both instances. */
  const setClock = (at: number) => writeFile(path.join(clockDir, 'now'), new Date(at).toISOString());
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
  /** The reminder events domains-svc wrote to its outbox for the property: what it emitted, delivered or not. */
  const emittedFor = async (propertyId: string) =>
    (
      await db.query(
        `SELECT routing_key FROM domains.outbox WHERE routing_key LIKE 'property.activation.reminder.%'
            AND message->'payload'->'params'->>'property_id' = $1 ORDER BY created_at`,
        [propertyId],
      )
    ).rows.map((r: { routing_key: string }) => r.routing_key);
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
  /** Waits until both instances have run the job `runs` more times (on the clock as it is now). */
  const bothRanAgain = async (runs: number) => {
    const admins = [sys.platform.adminUrls['domains-svc'], second.adminUrl];
    const before = await Promise.all(admins.map(reminderRuns));
    await waitFor(async () => (await Promise.all(admins.map(reminderRuns))).every((n, i) => n >= before[i] + runs), {
      what: `both instances running the reminder job ${runs} more times`,
    });
  };

  beforeAll(async () => {
    clockDir = await mkdtemp(path.join(os.tmpdir(), 'reminder-clock-'));
    // Before any domain exists: nothing is due until the test moves the clock.
    await setClock(Date.now());
    receiver = await startWebhookReceiver();
    sys = await startSystem({
      ACTIVATION_REMINDER_DAY_MS: String(DAY_MS),
      ACTIVATION_REMINDER_CLOCK_FILE: path.join(clockDir, 'now'),
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
    if (clockDir) await rm(clockDir, { recursive: true, force: true });
  });

  it('when properties stay inactive, are activated or deleted, then each inactive one gets each reminder once, on its day, in order, with the spec params and the owner e-mails; the others none after', async () => {
    const inactive = await Promise.all([createDomain('Ada'), createDomain(), createDomain('Grace')]);
    // Activated and deleted on day 0: the clock has not moved.
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
    const activatedLater = await createDomain();
    const all = [...inactive, activatedEarly, activatedLater];
    const created = new Map(
      await Promise.all(
        all.map(async (d) => [d.instance_property_id, await createdAt(d.instance_property_id)] as const),
      ),
    );
    // Day N for every property: half a day past the last one's day N (created within a few seconds of each other).
    const lastCreated = Math.max(...created.values());
    const movedAt = new Map<number, number>();
    const toDay = async (day: number) => {
      movedAt.set(day, Date.now());
      await setClock(lastCreated + day * DAY_MS + DAY_MS / 2);
    };

    await toDay(2);
    await waitFor(() => (eventsOf(activatedLater.instance_property_id).length > 0 ? true : undefined), {
      what: 'the day-2 reminder of the property activated later',
    });
    // Activated after its day-2 reminder reached the receiver, before day 7 (the clock stays on day 2).
    expect((await view(activatedLater.instance_property_id, activatedLater.hostname)).status).toBe(202);
    for (const [i, day] of DAYS.slice(1).entries()) {
      for (const d of inactive)
        await waitFor(() => (eventsOf(d.instance_property_id).length >= i + 1 ? true : undefined), {
          what: `the day-${DAYS[i]} reminder of ${d.hostname}`,
        });
      await toDay(day);
    }
    for (const d of inactive)
      await waitFor(() => (eventsOf(d.instance_property_id).length >= 4 ? true : undefined), {
        what: `the four reminders of ${d.hostname}`,
      });
    // Days pass with nothing left to send: both instances look a few more times and emit nothing.
    await toDay(34);
    await bothRanAgain(3);

    for (const d of inactive) {
      expect(await emittedFor(d.instance_property_id)).toEqual(REMINDERS);
      const hooks = hooksOf(d.instance_property_id);
      expect(hooks.map(({ payload }) => payload.event)).toEqual(REMINDERS);
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
        // Not before its day: sent only after the clock reached it.
        expect(r.receivedAt).toBeGreaterThanOrEqual(movedAt.get(DAYS[i])!);
      }
      // Emitted at its day by the reminders' clock.
      const emitted = await db.query(
        'SELECT day, emitted_at FROM domains.activation_reminders WHERE property_id = $1 ORDER BY day',
        [d.instance_property_id],
      );
      for (const row of emitted.rows as { day: number; emitted_at: Date }[])
        expect(row.emitted_at.getTime()).toBeGreaterThanOrEqual(
          created.get(d.instance_property_id)! + row.day * DAY_MS,
        );
    }
    for (const d of [activatedEarly, deletedEarly]) {
      expect(await emittedFor(d.instance_property_id)).toEqual([]);
      expect(eventsOf(d.instance_property_id)).toEqual([]);
    }
    expect(await emittedFor(activatedLater.instance_property_id)).toEqual(REMINDERS.slice(0, 1));
    expect(eventsOf(activatedLater.instance_property_id)).toEqual(REMINDERS.slice(0, 1));

    // The owners' e-mails, one per reminder, in the mail catcher.
    const smtp = sys.smtp as TestSmtpServer;
    const remindersTo = (hostname: string) =>
      smtp.messages.filter((m) => m.to.includes(`owner@${hostname}`) && m.subject.startsWith('Reminder'));
    for (const d of inactive) {
      await waitFor(() => remindersTo(d.hostname).length >= 4, {
        timeoutMs: 15_000,
        what: `the four reminder e-mails to owner@${d.hostname}`,
      });
      const mails = remindersTo(d.hostname);
      expect(mails).toHaveLength(4);
      expect(mails.map((m) => m.decoded.match(/(\d+) days after/)?.[1]).sort()).toEqual(['14', '2', '30', '7']);
    }
    expect([activatedEarly, deletedEarly].flatMap((d) => remindersTo(d.hostname))).toEqual([]);
  });
});
