import { createDb, migrateToLatest, type Kysely } from '@platform/db';
import { createTestDatabase } from '@platform/testing';
import {
  claimDueMail,
  createMailQueueRecipientIndex,
  createMailQueueTable,
  enqueueMail,
  markMailSent,
  type MailQueueDb,
} from '../src';

const T0 = new Date('2026-01-01T00:00:00Z').getTime();
const LEASE = 60_000;

let db: Kysely<MailQueueDb>;
let drop: () => Promise<void>;
beforeAll(async () => {
  const database = await createTestDatabase('mail_claim');
  drop = database.drop;
  db = createDb<MailQueueDb>({ url: database.url, schema: 'mail', max: 4 }).db;
  await migrateToLatest(db as Kysely<unknown>, 'mail', {
    '001_mail_queue': { up: (d) => createMailQueueTable(d) },
    '002_recipient': { up: (d) => createMailQueueRecipientIndex(d) },
  });
});
afterAll(async () => {
  await db?.destroy();
  await drop?.();
});

const mail = (to: string) => ({ partnerId: 'p', kind: 'test', to, subject: 's', text: 't' });
/** Queues mails due at `at` (next_attempt_at), in order. */
const queue = async (to: string, count: number, at: number) => {
  await enqueueMail(
    db,
    Array.from({ length: count }, () => mail(to)),
  );
  await db
    .updateTable('mail_queue')
    .set({ next_attempt_at: new Date(at) })
    .where('to_address', '=', to)
    .where('sent_at', 'is', null)
    .execute();
};

describe('claiming due mail: recipients take turns', () => {
  it("when one recipient's flood of mail was due before another recipient's one mail, then that mail is among the first two sent", async () => {
    await queue('flooded@example.com', 50, T0);
    await queue('partner-b@example.com', 1, T0 + 1_000);
    const sent: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const now = new Date(T0 + 10_000 + i);
      const [claimed] = await claimDueMail(db, now, LEASE);
      sent.push(claimed.to_address);
      await markMailSent(db, claimed.id, now);
    }
    expect(sent).toEqual(['flooded@example.com', 'partner-b@example.com', 'flooded@example.com']);
  });

  it('when mail is claimed, then it is leased (not claimed again before the lease ends) and its attempt counted', async () => {
    await queue('leased@example.com', 1, T0);
    const now = new Date(T0 + 20_000);
    const first = await claimDueMail(db, now, LEASE);
    const mine = first.find((m) => m.to_address === 'leased@example.com');
    expect(mine?.attempts).toBe(1);
    const again = await claimDueMail(db, new Date(now.getTime() + 1_000), LEASE, 100);
    expect(again.map((m) => m.id)).not.toContain(mine?.id);
    const afterLease = await claimDueMail(db, new Date(now.getTime() + LEASE + 1), LEASE, 100);
    expect(afterLease.find((m) => m.id === mine?.id)?.attempts).toBe(2);
  });
});
