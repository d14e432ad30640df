import { DOMAIN_EVENTS, type EventPayload } from '@platform/contracts';
import { inTransaction, type Kysely } from '@platform/db';
import type { JobDefinition } from '@platform/jobs';
import { enqueueMail } from '@platform/mail';
import {
  cancelPendingReminders,
  findPropertiesWithDueReminders,
  lockReminderDomain,
  markRemindersEmitted,
  pendingReminders,
  type ReminderDomain,
} from '../db/activation-reminders.repository';
import type { DomainsDb } from '../db/tables';
import { ACTIVATABLE_STATUSES } from '../db/widget.repository';
import { writeDomainEvents } from '../events/domain-events.writer';
import { activationReminderMail } from './activation-reminder-mail';
import { widgetScript } from './widget';

export interface ActivationReminderSettings {
  /** The length of a reminder "day" (ACTIVATION_REMINDER_DAY_MS): tests and demos shorten it. */
  dayMs: number;
  widgetBaseUrl: string;
  /** approval_url, with {property_id}, {domain_id} and {domain_name} filled in (ACTIVATION_APPROVAL_URL). */
  approvalUrlTemplate: string;
}

const REMINDER_EVENTS: Record<number, string> = {
  2: DOMAIN_EVENTS.reminderDay2,
  7: DOMAIN_EVENTS.reminderDay7,
  14: DOMAIN_EVENTS.reminderDay14,
  30: DOMAIN_EVENTS.reminderDay30,
};

/** Properties handled per statement that looks for due reminders. */
const BATCH = 200;

export function approvalUrl(template: string, domain: Pick<ReminderDomain, 'id' | 'property_id' | 'hostname'>): string {
  const values: Record<string, string> = { property_id: domain.property_id, domain_id: domain.id, domain_name: domain.hostname };
  return template.replace(/\{(property_id|domain_id|domain_name)\}/g, (_, key: string) => encodeURIComponent(values[key]));
}

/** Not yet activated: the statuses a first widget view activates from, and never activated before. */
const awaitsActivation = (domain: ReminderDomain) => (ACTIVATABLE_STATUSES as readonly string[]).includes(domain.status) && domain.activated_at === null;

/**
 * One property's due reminders, in one transaction under its domain's row lock: each due day's
 * event (outbox) and owner e-mail (mail queue), earliest day first, and the rows marked emitted.
 * An activated property's pending reminders are cancelled instead. Answers how many were emitted.
 */
async function emitPropertyReminders(db: Kysely<DomainsDb>, propertyId: string, now: Date, settings: ActivationReminderSettings): Promise<number | 'locked'> {
  return inTransaction(db, async (trx) => {
    const domain = await lockReminderDomain(trx, propertyId);
    // Held by another runner or a request (a later run sees it), or deleted (its reminders went with it).
    if (!domain) return 'locked';
    const pending = await pendingReminders(trx, propertyId);
    if (!awaitsActivation(domain)) {
      if (pending.length > 0) await cancelPendingReminders(trx, propertyId, now);
      return 0;
    }
    const due = pending.filter((r) => r.property_created_at.getTime() + r.day * settings.dayMs <= now.getTime()).map((r) => r.day);
    if (due.length === 0) return 0;
    // Under the domain's lock nobody else marks these rows; the count guards the once anyway.
    if ((await markRemindersEmitted(trx, propertyId, due, now)) !== due.length) throw new Error(`activation reminders of ${propertyId} changed under the lock`);

    const params = {
      property_id: domain.property_id,
      email: domain.owner_email,
      ...(domain.owner_first_name ? { first_name: domain.owner_first_name } : {}),
      website_url: `https://${domain.hostname}`,
      domain_name: domain.hostname,
      widget_embed_code: widgetScript(settings.widgetBaseUrl, domain.property_id),
      approval_url: approvalUrl(settings.approvalUrlTemplate, domain),
    };
    const events: EventPayload[] = due.map((day) => ({ event: REMINDER_EVENTS[day], params }));
    await writeDomainEvents(trx, domain.partner_id, domain.id, events);
    await enqueueMail<DomainsDb>(
      trx,
      due.map((day) =>
        activationReminderMail({
          partnerId: domain.partner_id,
          to: domain.owner_email,
          firstName: params.first_name,
          day,
          hostname: domain.hostname,
          websiteUrl: params.website_url,
          widgetSnippet: params.widget_embed_code,
          approvalUrl: params.approval_url,
        }),
      ),
    );
    return due.length;
  });
}

/**
 * Emits every reminder due at `now`, the longest due first, batch after batch until none is
 * left (a run after an outage catches up, each property's days in order) or `signal` aborts.
 * Safe in any number of processes at once: see emitPropertyReminders. Answers how many it emitted.
 */
export async function emitDueReminders(db: Kysely<DomainsDb>, now: Date, settings: ActivationReminderSettings, signal?: AbortSignal): Promise<number> {
  let emitted = 0;
  // Handled properties have nothing due any more; one locked elsewhere is left to the next run.
  const locked = new Set<string>();
  for (;;) {
    const batch = (await findPropertiesWithDueReminders(db, now, settings.dayMs, BATCH + locked.size)).filter((id) => !locked.has(id)).slice(0, BATCH);
    if (batch.length === 0) return emitted;
    for (const propertyId of batch) {
      if (signal?.aborted) return emitted;
      const result = await emitPropertyReminders(db, propertyId, now, settings);
      if (result === 'locked') locked.add(propertyId);
      else emitted += result;
    }
  }
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
