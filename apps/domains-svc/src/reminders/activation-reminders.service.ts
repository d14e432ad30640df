import { DOMAIN_EVENTS } from '@platform/contracts';
import { inTransaction, type Kysely } from '@platform/db';
import type { JobDefinition } from '@platform/jobs';
import { enqueueMail } from '@platform/mail';
import {
  cancelPendingReminders,
  findPropertiesWithDueReminders,
  lockReminderDomains,
  markRemindersEmitted,
  pendingReminders,
  type ReminderDomain,
} from './activation-reminders.repository';
import type { DomainsDb } from '../db/tables';
import { canMove } from '../status';
import { writeDomainEventBatch } from '../domains/events/domain-events.writer';
import { approvalUrl, ownerMail, type OwnerMailSettings } from '../domains/mail/owner-mail';
import { widgetScript } from '../domains/domain/widget-snippet';

export interface ActivationReminderSettings extends OwnerMailSettings {
  /** The length of a reminder "day" (ACTIVATION_REMINDER_DAY_MS): tests and demos shorten it. */
  dayMs: number;
}

const REMINDER_EVENTS: Record<number, string> = {
  2: DOMAIN_EVENTS.reminderDay2,
  7: DOMAIN_EVENTS.reminderDay7,
  14: DOMAIN_EVENTS.reminderDay14,
  30: DOMAIN_EVENTS.reminderDay30,
};

/** Properties looked for and locked per transaction. */
const BATCH = 100;

/** Not yet activated: the statuses a first widget view activates from, and never activated before. */
const awaitsActivation = (domain: ReminderDomain) =>
  canMove('firstView', domain.status) && domain.activated_at === null;

/** The spec's params of a property's reminders (the same for every day). */
function reminderParams(domain: ReminderDomain, settings: ActivationReminderSettings) {
  return {
    property_id: domain.property_id,
    email: domain.owner_email,
    ...(domain.owner_first_name ? { first_name: domain.owner_first_name } : {}),
    website_url: `https://${domain.hostname}`,
    domain_name: domain.hostname,
    widget_embed_code: widgetScript(settings.widgetBaseUrl, domain.property_id),
    approval_url: approvalUrl(settings.approvalUrlTemplate, domain),
  };
}

/**
 * Some properties' due reminders, in one transaction under their domains' row locks: each due
 * day's event (outbox) and owner e-mail (mail queue), each property's days earliest first, and
 * the rows marked emitted. Activated properties' pending reminders are cancelled instead.
 * Answers how many were emitted and which properties were locked elsewhere (or deleted).
 */
async function emitBatch(
  db: Kysely<DomainsDb>,
  propertyIds: string[],
  now: Date,
  settings: ActivationReminderSettings,
) {
  return inTransaction(db, async (trx) => {
    const domains = await lockReminderDomains(trx, propertyIds);
    const held = new Set(domains.map((d) => d.property_id));
    const skipped = propertyIds.filter((id) => !held.has(id));
    if (domains.length === 0) return { emitted: 0, skipped };

    const activated = domains.filter((d) => !awaitsActivation(d)).map((d) => d.property_id);
    if (activated.length > 0) await cancelPendingReminders(trx, activated, now);
    const waiting = new Map(domains.filter(awaitsActivation).map((d) => [d.property_id, d]));
    if (waiting.size === 0) return { emitted: 0, skipped };
    const due = (await pendingReminders(trx, [...waiting.keys()])).filter(
      (r) => r.property_created_at.getTime() + r.day * settings.dayMs <= now.getTime(),
    );
    if (due.length === 0) return { emitted: 0, skipped };
    // Under the domains' locks nobody else marks these rows; the count guards the once anyway.
    if ((await markRemindersEmitted(trx, due, now)) !== due.length)
      throw new Error("activation reminders changed under their domains' locks");

    const sends = due.map((r) => {
      const domain = waiting.get(r.property_id)!;
      return { domain, day: r.day, params: reminderParams(domain, settings) };
    });
    await writeDomainEventBatch(
      trx,
      sends.map(({ domain, day, params }) => ({
        partnerId: domain.partner_id,
        domainId: domain.id,
        payload: { event: REMINDER_EVENTS[day], params },
      })),
    );
    const mails = [];
    for (const { domain, day } of sends)
      mails.push(
        await ownerMail(trx, settings, 'ACTIVATION_REMINDER', `reminder_day${day}`, domain, {
          reminder_day: String(day),
        }),
      );
    await enqueueMail<DomainsDb>(trx, mails);
    return { emitted: sends.length, skipped };
  });
}

/**
 * Emits every reminder due at `now`, the longest due first, batch after batch until none is
 * left (a run after an outage catches up, each property's days in order) or `signal` aborts.
 * Safe in any number of processes at once: see emitBatch. Answers how many it emitted.
 */
export async function emitDueReminders(
  db: Kysely<DomainsDb>,
  now: Date,
  settings: ActivationReminderSettings,
  signal?: AbortSignal,
): Promise<number> {
  let emitted = 0;
  // Handled properties have nothing due any more; one locked elsewhere is left to the next run.
  const skipped = new Set<string>();
  while (!signal?.aborted) {
    const batch = (await findPropertiesWithDueReminders(db, now, settings.dayMs, BATCH + skipped.size))
      .filter((id) => !skipped.has(id))
      .slice(0, BATCH);
    if (batch.length === 0) break;
    const result = await emitBatch(db, batch, now, settings);
    emitted += result.emitted;
    for (const id of result.skipped) skipped.add(id);
  }
  return emitted;
}

/**
 * The job: every instance runs it (no singleton, so one stuck process does not hold the others
 * back); rows and row locks make each reminder go out once. It looks every tenth of a day, at
 * most every 10 s, so a reminder is late by at most that.
 */
export function activationReminderJob(settings: ActivationReminderSettings): JobDefinition<DomainsDb> {
  const intervalMs = Math.max(50, Math.min(10_000, Math.floor(settings.dayMs / 10)));
  return {
    name: 'activation-reminders',
    intervalMs,
    jitterMs: Math.floor(intervalMs / 2),
    deadlineMs: 60_000,
    run: async ({ db, now, signal }) => ({ emitted: await emitDueReminders(db, now, settings, signal) }),
  };
}
