import { randomUUID } from 'node:crypto';
import { sql } from '@platform/db';
import { JobRunner, pruneChassisTables } from '@platform/jobs';
import { createLogger } from '@platform/observability';
import type { DomainsDb } from '../src/db/tables';
import { mailJobs } from '@platform/mail';
import { startDomainsSvc, type Harness } from './support/harness';

const DAY = 86_400_000;
const WEEK = 7 * DAY;
const logger = createLogger('housekeeping-test', 'silent');

describe('housekeeping of domains-svc', () => {
  let h: Harness;
  beforeAll(async () => {
    // No relay: the pending outbox row below must stay pending. The service's own prune jobs keep
    // 30 days here, so only the calls under test delete these rows.
    const month = String(30 * DAY);
    h = await startDomainsSvc({
      OUTBOX_RELAY_ENABLED: 'false',
      OUTBOX_RETENTION_MS: month,
      PROCESSED_RETENTION_MS: month,
      MAIL_RETENTION_MS: month,
    });
  });
  afterAll(() => h?.close());

  it('when the chassis prune runs as the service role, then published events and processed ids past retention go; pending events, however old, and recent rows stay', async () => {
    const now = new Date();
    const ago = (ms: number) => new Date(now.getTime() - ms);
    const outbox = async (name: string, createdAt: Date, publishedAt: Date | null) =>
      sql`INSERT INTO domains.outbox (id, routing_key, message, created_at, published_at)
          VALUES (${randomUUID()}, 'domain.created', ${JSON.stringify({ name })}::jsonb, ${createdAt}, ${publishedAt})`.execute(
        h.deps.db,
      );
    await outbox('old-published', ago(30 * DAY), ago(WEEK + DAY));
    await outbox('recent-published', ago(30 * DAY), ago(DAY));
    await outbox('old-pending', ago(30 * DAY), null);
    await sql`INSERT INTO domains.processed_messages (consumer, message_id, processed_at)
              VALUES ('q', 'old', ${ago(WEEK + DAY)}), ('q', 'recent', ${ago(DAY)})`.execute(h.deps.db);

    const result = await pruneChassisTables('domains', { outboxMs: WEEK, processedMs: WEEK })(h.deps.db, now);

    expect(result).toEqual({ outbox: 1, processed: 1 });
    const left = await sql<{
      name: string;
    }>`SELECT message->>'name' AS name FROM domains.outbox WHERE message ? 'name' ORDER BY 1`.execute(h.deps.db);
    expect(left.rows.map((r) => r.name)).toEqual(['old-pending', 'recent-published']);
    const ids = await sql<{ message_id: string }>`SELECT message_id FROM domains.processed_messages ORDER BY 1`.execute(
      h.deps.db,
    );
    expect(ids.rows.map((r) => r.message_id)).toEqual(['recent']);
  });

  it('when the mail prune job runs, then addresses and bodies of mail sent or given up past the retention are deleted; pending and recent mail stays', async () => {
    const T0 = Date.parse('2100-01-01T00:00:00Z');
    const mail = (kind: string, sentAt: number | null, failedAt: number | null) =>
      sql`INSERT INTO domains.mail_queue (partner_id, kind, to_address, subject, text_body, sent_at, failed_at, next_attempt_at)
          VALUES ('housekeeping', ${kind}, 'someone@example.com', 's', 'b', ${sentAt === null ? null : new Date(sentAt)}, ${failedAt === null ? null : new Date(failedAt)}, ${new Date(T0 + DAY)})`.execute(
        h.deps.db,
      );
    await mail('old-sent', T0 - 8 * DAY, null);
    await mail('old-given-up', null, T0 - 8 * DAY);
    await mail('recent-sent', T0 - DAY, null);
    await mail('pending', null, null);
    const [, prune] = mailJobs<DomainsDb>({} as never, logger, {
      from: 'x@example.com',
      pollMs: 1_000,
      leaseMs: 60_000,
      retentionMs: WEEK,
    });
    const runner = new JobRunner<DomainsDb>({
      db: h.deps.db,
      logger,
      clock: { now: () => new Date(T0) },
      random: () => 0,
    }).every(prune);

    await runner.tick();

    const left = await sql<{
      kind: string;
    }>`SELECT kind FROM domains.mail_queue WHERE partner_id = 'housekeeping' ORDER BY kind`.execute(h.deps.db);
    expect(left.rows.map((r) => r.kind)).toEqual(['pending', 'recent-sent']);
  });
});
