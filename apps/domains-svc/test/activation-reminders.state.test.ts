import { EVENT_REGISTRY, type EventName } from '@platform/contracts';
import { inTransaction, sql, type Kysely } from '@platform/db';
import { JobRunner, type Clock } from '@platform/jobs';
import { createLogger } from '@platform/observability';
import { waitFor } from '@platform/testing';
import { activateOnFirstView } from '../src/widget/widget.repository';
import type { DomainsDb } from '../src/db/tables';
import {
  activationReminderJob,
  emitDueReminders,
  type ActivationReminderSettings,
} from '../src/reminders/activation-reminders.service';
import { recordWidgetView } from '../src/widget/widget-views.service';
import {
  createBody,
  startDomainsSvc,
  uniqueHost,
  WIDGET_BASE_URL,
  type Harness,
  type TestPartner,
} from './support/harness';

const DAY = 86_400_000;
const logger = createLogger('reminders-test', 'silent');
const SETTINGS: ActivationReminderSettings = {
  dayMs: DAY,
  widgetBaseUrl: WIDGET_BASE_URL,
  approvalUrlTemplate: 'https://partner.test/approve/{property_id}?site={domain_name}',
};
const REMINDERS = [
  'property.activation.reminder.day2',
  'property.activation.reminder.day7',
  'property.activation.reminder.day14',
  'property.activation.reminder.day30',
];

/** A clock that starts now (the properties' creation time is real) and moves by days. */
function movableClock() {
  const start = Date.now();
  let at = start;
  const clock: Clock = { now: () => new Date(at) };
  return { clock, now: () => clock.now(), toDay: (days: number) => (at = start + days * DAY + 60_000) };
}

describe('activation reminders (day 2, 7, 14, 30)', () => {
  let h: Harness;
  beforeAll(async () => {
    // The service's own job runs with the real clock and a real day: it never finds these due.
    h = await startDomainsSvc();
  });
  afterAll(() => h?.close());

  const create = async (p: TestPartner, extra: Record<string, unknown> = {}) => {
    const host = uniqueHost();
    const res = await h.call(p, 'POST', '/portal/domains', createBody(host, { account_first_name: 'Ada', ...extra }));
    expect(res.status).toBe(200);
    return { id: res.body.result.id as string, propertyId: res.body.result.instance_property_id as string, host };
  };
  const reminders = async (p: TestPartner) => (await h.outbox(p.id)).filter((r) => REMINDERS.includes(r.routing_key));
  const reminderMails = async (p: TestPartner) =>
    (
      await sql<{
        kind: string;
        to_address: string;
        text_body: string;
      }>`SELECT kind, to_address, text_body FROM domains.mail_queue WHERE partner_id = ${p.id} AND kind LIKE 'reminder_%' ORDER BY id`.execute(
        h.deps.db,
      )
    ).rows;
  const emit = (now: Date) => emitDueReminders(h.deps.db, now, SETTINGS);

  it('when a property stays inactive, then each reminder is emitted once on its day, in order, with the spec params and the owner e-mail', async () => {
    const p = h.partner();
    const d = await create(p);
    const { now, toDay } = movableClock();

    toDay(1);
    await emit(now());
    expect(await reminders(p)).toEqual([]);

    for (const day of [2, 7, 14, 30]) {
      toDay(day);
      await emit(now());
      await emit(now());
      expect((await reminders(p)).map((r) => r.routing_key)).toEqual(
        REMINDERS.slice(0, [2, 7, 14, 30].indexOf(day) + 1),
      );
    }
    toDay(400);
    await emit(now());

    const rows = await reminders(p);
    expect(rows.map((r) => r.routing_key)).toEqual(REMINDERS);
    for (const row of rows) {
      const payload = EVENT_REGISTRY[row.routing_key as EventName].schema.parse(row.message.payload);
      expect(payload).toEqual({
        event: row.routing_key,
        params: {
          property_id: d.propertyId,
          email: `owner@${d.host}`,
          first_name: 'Ada',
          website_url: `https://${d.host}`,
          domain_name: d.host,
          widget_embed_code: `<script src="${WIDGET_BASE_URL}/widget/v1/${d.propertyId}/loader.js"></script>`,
          approval_url: `https://partner.test/approve/${d.propertyId}?site=${d.host}`,
        },
      });
      expect(row.message.aggregate_id).toBe(d.id);
    }
    const mails = await reminderMails(p);
    expect(mails.map((m) => [m.kind, m.to_address])).toEqual(
      [2, 7, 14, 30].map((day) => [`reminder_day${day}`, `owner@${d.host}`]),
    );
    expect(mails[0].text_body).toContain(`${WIDGET_BASE_URL}/widget/v1/${d.propertyId}/loader.js`);
    // The service's mail sender delivers them to the owner.
    await waitFor(
      () =>
        h.smtp.messages.filter((m) => m.to.includes(`owner@${d.host}`) && m.subject.startsWith('Reminder')).length ===
          4 || undefined,
      { what: 'the four reminder e-mails' },
    );
  });

  it('when the service was down past several days, then the late reminders are caught up in order in one run, once', async () => {
    const p = h.partner();
    await create(p, { account_first_name: undefined });
    const { now, toDay } = movableClock();
    toDay(31);
    expect(await emit(now())).toBeGreaterThanOrEqual(4);
    await emit(now());
    const rows = await reminders(p);
    expect(rows.map((r) => r.routing_key)).toEqual(REMINDERS);
    // No first name given: the optional param is absent.
    expect(rows[0].message.payload.params).not.toHaveProperty('first_name');
  });

  it('when the property is activated (after day 2) or deleted, then no reminder follows', async () => {
    const p = h.partner();
    const activated = await create(p);
    const deleted = await create(p);
    const invited = await create(p);
    expect((await h.call(p, 'POST', `/portal/domains/${invited.id}/invite`, { send_invite: true })).status).toBe(200);
    const { now, toDay } = movableClock();
    toDay(2);
    await emit(now());
    expect((await reminders(p)).map((r) => r.message.payload.params.property_id)).toEqual(
      expect.arrayContaining([activated.propertyId, deleted.propertyId, invited.propertyId]),
    );

    expect(await recordWidgetView({ db: h.deps.db }, activated.propertyId, `https://${activated.host}/`)).toEqual({
      activated: true,
    });
    expect((await h.call(p, 'DELETE', `/portal/domains/${deleted.id}`)).body).toEqual({ result: { deleted: true } });
    toDay(31);
    await emit(now());

    const byProperty = (id: string) =>
      reminders(p).then((rows) =>
        rows.filter((r) => r.message.payload.params.property_id === id).map((r) => r.routing_key),
      );
    expect(await byProperty(activated.propertyId)).toEqual(REMINDERS.slice(0, 1));
    expect(await byProperty(deleted.propertyId)).toEqual(REMINDERS.slice(0, 1));
    // An invited (not yet active) property keeps getting them.
    expect(await byProperty(invited.propertyId)).toEqual(REMINDERS);
    const left = await sql<{ day: number; emitted: boolean; cancelled: boolean }>`
      SELECT day, emitted_at IS NOT NULL AS emitted, cancelled_at IS NOT NULL AS cancelled FROM domains.activation_reminders WHERE property_id = ${activated.propertyId} ORDER BY day`.execute(
      h.deps.db,
    );
    expect(left.rows).toEqual([
      { day: 2, emitted: true, cancelled: false },
      ...[7, 14, 30].map((day) => ({ day, emitted: false, cancelled: true })),
    ]);
    expect(
      (
        await sql`SELECT 1 FROM domains.activation_reminders WHERE property_id = ${deleted.propertyId}`.execute(
          h.deps.db,
        )
      ).rows,
    ).toEqual([]);
  });

  it('when an activation or a deletion holds the domain while the reminder falls due, then the reminder waits for it and is never sent', async () => {
    const p = h.partner();
    const activated = await create(p);
    const deleted = await create(p);
    const { now, toDay } = movableClock();
    toDay(2);

    // The widget's first view and the partner's delete, each in its own transaction, not yet committed.
    const holding = (
      work: (trx: Kysely<DomainsDb>) => Promise<void>,
      finish: (trx: Kysely<DomainsDb>) => Promise<void>,
    ) => {
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let started!: () => void;
      const holds = new Promise<void>((resolve) => (started = resolve));
      const done = inTransaction(
        h.deps.db,
        async (trx) => {
          await work(trx);
          started();
          await released;
          await finish(trx);
        },
        1,
      );
      return { holds, release, done };
    };
    const activation = holding(
      async (trx) => void expect(await activateOnFirstView(trx, activated.propertyId)).toBeDefined(),
      async () => undefined,
    );
    const deletion = holding(
      async (trx) =>
        void (await sql`SELECT 1 FROM domains.domains WHERE property_id = ${deleted.propertyId} FOR UPDATE`.execute(
          trx,
        )),
      async (trx) => {
        await trx.deleteFrom('domains').where('property_id', '=', deleted.propertyId).execute();
        await trx.deleteFrom('properties').where('id', '=', deleted.propertyId).execute();
      },
    );
    await Promise.all([activation.holds, deletion.holds]);
    await emit(now());
    activation.release();
    deletion.release();
    await Promise.all([activation.done, deletion.done]);
    await emit(now());

    const rows = (await reminders(p)).map((r) => r.message.payload.params.property_id);
    expect(rows).not.toContain(activated.propertyId);
    expect(rows).not.toContain(deleted.propertyId);
  });

  it('when several runners (job runners on one moved clock) run at once over many properties, then each reminder goes out exactly once, in order', async () => {
    const p = h.partner();
    const created = await Promise.all(Array.from({ length: 25 }, () => create(p)));
    const { clock, toDay } = movableClock();
    const runners = Array.from({ length: 4 }, () =>
      new JobRunner<DomainsDb>({ db: h.deps.db, logger, clock, random: () => 0 }).every(
        activationReminderJob(SETTINGS),
      ),
    );

    for (const day of [2, 31]) {
      toDay(day);
      await Promise.all(runners.map((r) => r.tick()));
    }

    const rows = await reminders(p);
    expect(rows).toHaveLength(25 * 4);
    for (const d of created) {
      expect(
        rows.filter((r) => r.message.payload.params.property_id === d.propertyId).map((r) => r.routing_key),
      ).toEqual(REMINDERS);
    }
    expect((await reminderMails(p)).length).toBe(25 * 4);
  });
});
