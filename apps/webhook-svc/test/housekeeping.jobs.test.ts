import { randomBytes, randomUUID } from 'node:crypto';
import { sql } from '@platform/db';
import { createLogger } from '@platform/observability';
import { startTestService } from '@platform/testing';
import { webhookJobs } from '../src/jobs/webhook.jobs';
import { webhookService } from '../src/service';

const DAY = 86_400_000;

describe('webhook housekeeping jobs', () => {
  let t: Awaited<ReturnType<typeof start>>;
  const start = () =>
    startTestService(webhookService, { WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64'), WEBHOOK_ROLE: 'api' });
  const jobs = webhookJobs({ disableAfterMs: 5 * DAY, retentionMs: 30 * DAY });
  const run = (name: string, now: Date) =>
    jobs
      .find((j) => j.name === name)!
      .run({
        db: t.service.runtime.db,
        now,
        clock: { now: () => now },
        signal: new AbortController().signal,
        logger: createLogger('test', 'silent'),
      });

  beforeAll(async () => {
    t = await start();
  });
  afterAll(() => t?.close());

  const endpoint = async (failingSince: Date | null) => {
    const id = randomUUID();
    await t.service.runtime.db
      .insertInto('endpoints')
      .values({
        id,
        partner_id: 'p',
        url: 'https://hooks.example.com/',
        description: '',
        events: null,
        secret: 'v1.x.y.z',
        failing_since: failingSince,
      })
      .execute();
    return id;
  };

  it('when an endpoint has had no success for 5 days, then it is disabled as failing; one failing for 4 days and a healthy one stay enabled', async () => {
    const now = new Date();
    const [old, recent, healthy] = [
      await endpoint(new Date(now.getTime() - 5 * DAY - 60_000)),
      await endpoint(new Date(now.getTime() - 4 * DAY)),
      await endpoint(null),
    ];
    expect(await run('webhooks-disable-failing', now)).toEqual({ disabled: 1 });
    const rows = await t.service.runtime.db
      .selectFrom('endpoints')
      .select(['id', 'enabled', 'disabled_reason'])
      .where('id', 'in', [old, recent, healthy])
      .execute();
    expect(Object.fromEntries(rows.map((r) => [r.id, [r.enabled, r.disabled_reason]]))).toEqual({
      [old]: [false, 'failing'],
      [recent]: [true, null],
      [healthy]: [true, null],
    });
  });

  it('when deliveries are older than the retention, then finished ones go with their attempts and messages, pending ones stay', async () => {
    const db = t.service.runtime.db;
    const ep = await endpoint(null);
    const old = new Date(Date.now() - 31 * DAY);
    const add = async (status: 'succeeded' | 'failed' | 'pending', at: Date) => {
      const id = randomUUID();
      await db
        .insertInto('messages')
        .values({ id, partner_id: 'p', event: 'domain.deleted', body: '{}', created_at: at })
        .execute();
      await db
        .insertInto('deliveries')
        .values({
          id,
          message_id: id,
          endpoint_id: ep,
          partner_id: 'p',
          event: 'domain.deleted',
          status,
          created_at: at,
          updated_at: at,
        })
        .execute();
      await db
        .insertInto('attempts')
        .values({
          delivery_id: id,
          endpoint_id: ep,
          attempted_at: at,
          duration_ms: 1,
          status_code: 500,
          response_truncated: false,
        })
        .execute();
      return id;
    };
    const [gone1, gone2, keptPending, keptRecent] = [
      await add('succeeded', old),
      await add('failed', old),
      await add('pending', old),
      await add('succeeded', new Date()),
    ];
    expect(await run('webhooks-prune', new Date())).toEqual({ deliveries: 2, messages: 2 });
    const left = await db.selectFrom('deliveries').select('id').where('endpoint_id', '=', ep).execute();
    expect(left.map((r) => r.id).sort()).toEqual([keptPending, keptRecent].sort());
    const { rows } = await sql<{
      n: number;
    }>`SELECT count(*)::int AS n FROM attempts WHERE delivery_id IN (${gone1}, ${gone2})`.execute(db);
    expect(rows[0].n).toBe(0);
  });
});
