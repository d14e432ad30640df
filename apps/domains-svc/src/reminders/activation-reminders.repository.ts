import { sql, type Kysely } from '@platform/db';
import { ACTIVATION_REMINDER_DAYS, type DomainsDb } from '../db/tables';

/** A pending reminder's predicate (the partial index activation_reminders_pending). */
const pending = sql<boolean>`emitted_at IS NULL AND cancelled_at IS NULL`;

/**
 * Properties with a reminder due at `now` (created at least `day` days before it), the longest
 * due first. One index range per day; nothing is locked (see lockReminderDomain).
 */
export async function findPropertiesWithDueReminders(
  db: Kysely<DomainsDb>,
  now: Date,
  dayMs: number,
  limit: number,
): Promise<string[]> {
  const perDay = ACTIVATION_REMINDER_DAYS.map(
    (day) => sql`(
      SELECT property_id, property_created_at + ${day * dayMs} * interval '1 millisecond' AS due_at FROM activation_reminders
      WHERE day = ${day} AND ${pending} AND property_created_at <= ${new Date(now.getTime() - day * dayMs)}
      ORDER BY property_created_at LIMIT ${limit})`,
  );
  const { rows } = await sql<{ property_id: string }>`
    SELECT property_id FROM (${sql.join(perDay, sql` UNION ALL `)}) AS due
    GROUP BY property_id ORDER BY min(due_at), property_id LIMIT ${limit}`.execute(db);
  return rows.map((r) => r.property_id);
}

/**
 * The properties' domains and owners, their rows locked FOR UPDATE: the lock the widget's
 * activation (its conditional UPDATE) and the domain's deletion take too, so a reminder commits
 * either before them or sees their result. SKIP LOCKED: a domain another runner (or a request)
 * holds is left out, for a later run; so is a deleted one.
 */
export async function lockReminderDomains(trx: Kysely<DomainsDb>, propertyIds: string[]) {
  return trx
    .selectFrom('domains as d')
    .innerJoin('companies as c', 'c.id', 'd.company_id')
    .select([
      'd.id',
      'd.partner_id',
      'd.hostname',
      'd.status',
      'd.activated_at',
      'd.property_id',
      'c.owner_email',
      'c.owner_first_name',
      'c.owner_last_name',
      'c.name as company_name',
    ])
    .where('d.property_id', 'in', propertyIds)
    .forUpdate('d')
    .skipLocked()
    .execute();
}
export type ReminderDomain = Awaited<ReturnType<typeof lockReminderDomains>>[number];

/** The properties' pending reminders, per property earliest day first (their domains are locked by the caller). */
export async function pendingReminders(trx: Kysely<DomainsDb>, propertyIds: string[]) {
  return trx
    .selectFrom('activation_reminders')
    .select(['property_id', 'day', 'property_created_at'])
    .where('property_id', 'in', propertyIds)
    .where(pending)
    .orderBy('property_id')
    .orderBy('day')
    .forUpdate()
    .execute();
}

/** Marks (property, day) pairs emitted; only rows still pending change (the caller checks the count). */
export async function markRemindersEmitted(
  trx: Kysely<DomainsDb>,
  reminders: { property_id: string; day: number }[],
  at: Date,
): Promise<number> {
  // The pairs as one array of "property_id/day" keys: = ANY over the primary key's columns keeps it an index scan.
  const { rows } = await sql<{ property_id: string }>`
    UPDATE activation_reminders SET emitted_at = ${at}
    WHERE property_id = ANY(${[...new Set(reminders.map((x) => x.property_id))]}::uuid[])
      AND property_id::text || '/' || day = ANY(${reminders.map((x) => `${x.property_id}/${x.day}`)}::text[])
      AND ${pending}
    RETURNING property_id`.execute(trx);
  return rows.length;
}

/** Activated properties: their pending reminders are never sent. */
export async function cancelPendingReminders(trx: Kysely<DomainsDb>, propertyIds: string[], at: Date) {
  await trx
    .updateTable('activation_reminders')
    .set({ cancelled_at: at })
    .where('property_id', 'in', propertyIds)
    .where(pending)
    .execute();
}
