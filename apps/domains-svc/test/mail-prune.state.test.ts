import { sql } from '@platform/db';
import { pruneMail } from '@platform/mail';
import { startDomainsSvc, type Harness } from './support/harness';

describe('mail retention', () => {
  let h: Harness;
  beforeAll(async () => {
    // The service's own prune job keeps 30 days here, so only the call under test deletes.
    h = await startDomainsSvc({ MAIL_RETENTION_MS: String(30 * 24 * 3_600_000) });
  });
  afterAll(() => h?.close());

  it('when mail was sent or given up before the cutoff, then it is deleted; pending and recent mail stays', async () => {
    const day = 24 * 3_600_000;
    const now = Date.now();
    const row = (kind: string, sent: Date | null, failed: Date | null) =>
      sql`INSERT INTO domains.mail_queue (partner_id, kind, to_address, subject, text_body, sent_at, failed_at, next_attempt_at)
          VALUES ('prune-partner', ${kind}, 'someone@example.com', 's', 'b', ${sent}, ${failed}, ${new Date(now + day)})`.execute(
        h.deps.db,
      );
    await row('old-sent', new Date(now - 8 * day), null);
    await row('old-failed', null, new Date(now - 8 * day));
    await row('recent-sent', new Date(now - day), null);
    await row('pending', null, null);
    const before = await sql<{
      kind: string;
    }>`SELECT kind FROM domains.mail_queue WHERE partner_id = 'prune-partner' ORDER BY kind`.execute(h.deps.db);
    expect(before.rows.map((r) => r.kind)).toEqual(['old-failed', 'old-sent', 'pending', 'recent-sent']);
    expect(await pruneMail(h.deps.db, new Date(now - 7 * day))).toBe(2);
    const left = await sql<{
      kind: string;
    }>`SELECT kind FROM domains.mail_queue WHERE partner_id = 'prune-partner' ORDER BY kind`.execute(h.deps.db);
    expect(left.rows.map((r) => r.kind)).toEqual(['pending', 'recent-sent']);
  });
});
