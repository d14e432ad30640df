import { Client } from 'pg';
import type { ExtraInstance, Platform } from '@platform/launcher';

export interface ReminderBenchRow {
  name: string;
  value: string;
}

/** A short reminder day for the measuring instances: the job looks every 100 ms. */
const DAY_MS = 1_000;

/**
 * Due reminders emitted per second by 1 and 2 extra domains-svc instances (a 1 s reminder day):
 * `count` seeded properties not yet activated, each with its day-2 reminder due at once (created
 * 2.5 s ago by that day, not due by the platform's own instance's real day), then the instances
 * started; measured from the first reminder event's outbox row to the last (each: domain locked,
 * event, owner e-mail, row marked; up to 100 properties per transaction). Other pending reminders (domains the
 * create scenarios made) are cancelled first, so only the seeded ones are counted.
 */
export async function runReminderBench(
  platform: Platform,
  databaseUrl: string,
  count = Number(process.env.BENCH_REMINDERS ?? 10_000),
): Promise<ReminderBenchRow[]> {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  const rows: ReminderBenchRow[] = [];
  try {
    for (const instances of [1, 2]) {
      await db.query(
        'UPDATE domains.activation_reminders SET cancelled_at = now() WHERE emitted_at IS NULL AND cancelled_at IS NULL',
      );
      const seeded = await db.query<{ property_id: string }>(
        `INSERT INTO domains.activation_reminders (property_id, day, property_created_at)
         SELECT d.property_id, 2, now() - interval '2500 milliseconds' FROM domains.domains d
         WHERE d.status IN ('NEW', 'SCANNED', 'INVITED') AND d.activated_at IS NULL
           AND NOT EXISTS (SELECT 1 FROM domains.activation_reminders r WHERE r.property_id = d.property_id)
         LIMIT $1 RETURNING property_id`,
        [count],
      );
      const ids = seeded.rows.map((r) => r.property_id);
      const started = Date.now();
      const extra: ExtraInstance[] = await Promise.all(
        Array.from({ length: instances }, () =>
          platform.startInstance('domains-svc', { ACTIVATION_REMINDER_DAY_MS: String(DAY_MS) }),
        ),
      );
      try {
        const deadline = Date.now() + 180_000;
        for (;;) {
          const { rows: left } = await db.query<{ n: number }>(
            'SELECT count(*)::int AS n FROM domains.activation_reminders WHERE property_id = ANY($1::uuid[]) AND emitted_at IS NULL',
            [ids],
          );
          if (left[0].n === 0) break;
          if (Date.now() > deadline)
            throw new Error(`reminders bench: ${left[0].n} of ${ids.length} reminders still pending after 180 s`);
          await new Promise((r) => setTimeout(r, 200));
        }
      } finally {
        await Promise.all(extra.map((e) => e.process.stop()));
      }
      const { rows: span } = await db.query<{ n: number; seconds: number }>(
        `SELECT count(*)::int AS n, extract(epoch FROM max(created_at) - min(created_at))::float8 AS seconds FROM domains.outbox
         WHERE routing_key = 'property.activation.reminder.day2' AND message->'payload'->'params'->>'property_id' = ANY($1::text[])`,
        [ids],
      );
      const perSecond = Math.round(span[0].n / Math.max(span[0].seconds, 0.001));
      console.log(
        `  reminders: ${instances} instance(s): ${span[0].n} emitted in ${span[0].seconds.toFixed(2)} s = ${perSecond}/s (start to all emitted: ${Date.now() - started} ms, including the instances' start)`,
      );
      rows.push({
        name: `due reminders emitted per second, ${instances} domains-svc instance${instances > 1 ? 's' : ''} (${span[0].n} due at once; event + owner e-mail + row each, up to 100 properties per transaction)`,
        value: String(perSecond),
      });
    }
  } finally {
    await db.end();
  }
  return rows;
}
