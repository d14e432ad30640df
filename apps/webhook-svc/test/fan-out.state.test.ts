import { randomBytes, randomUUID } from 'node:crypto';
import { inTransaction } from '@platform/db';
import { startTestService } from '@platform/testing';
import { fanOut } from '../src/delivery/delivery-work.repository';
import { webhookService } from '../src/service';

describe('fan-out of a batch of events', () => {
  let t: Awaited<ReturnType<typeof start>>;
  const start = () =>
    startTestService(webhookService, { WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64'), WEBHOOK_ROLE: 'api' });

  beforeAll(async () => {
    t = await start();
  });
  afterAll(() => t?.close());

  const endpoint = async (partnerId: string, events: string[] | null, enabled = true) => {
    const id = randomUUID();
    await t.service.runtime.db
      .insertInto('endpoints')
      .values({
        id,
        partner_id: partnerId,
        url: `https://hooks.example.com/${id}`,
        description: '',
        events,
        enabled,
        secret: 'v1.x.y.z',
      })
      .execute();
    return id;
  };
  const message = (partnerId: string, event: string) => ({
    id: randomUUID(),
    partnerId,
    event,
    body: JSON.stringify({ event, params: { n: randomUUID() } }),
  });

  it("when one statement fans out events of several partners, then each reaches only its own partner's enabled endpoints that want it, once, with its own body", async () => {
    const [a, b, quiet] = [`pa-${randomUUID()}`, `pb-${randomUUID()}`, `pq-${randomUUID()}`];
    const aAll = await endpoint(a, null);
    const aDeleted = await endpoint(a, ['domain.deleted']);
    await endpoint(a, null, false);
    const bCreated = await endpoint(b, ['domain.created']);
    const batch = [
      message(a, 'domain.created'),
      message(b, 'domain.created'),
      message(a, 'domain.deleted'),
      message(b, 'domain.deleted'),
      message(quiet, 'domain.created'),
    ];

    const work = await inTransaction(t.service.runtime.db, (trx) => fanOut(trx, batch, 60_000));
    const sent = work.map((w) => [w.endpoint_id, w.body]).sort();
    expect(sent).toEqual(
      [
        [aAll, batch[0].body],
        [bCreated, batch[1].body],
        [aAll, batch[2].body],
        [aDeleted, batch[2].body],
      ].sort(),
    );
    // Stored: the messages someone wants (not b's domain.deleted nor the quiet partner's), each once.
    const stored = await t.service.runtime.db
      .selectFrom('messages')
      .select('id')
      .where(
        'id',
        'in',
        batch.map((m) => m.id),
      )
      .execute();
    expect(stored.map((r) => r.id).sort()).toEqual([batch[0].id, batch[1].id, batch[2].id].sort());

    // The same batch again (a redelivery) adds nothing.
    expect(await inTransaction(t.service.runtime.db, (trx) => fanOut(trx, batch, 60_000))).toEqual([]);
  });
});
