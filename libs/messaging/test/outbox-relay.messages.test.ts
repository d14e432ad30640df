import { Kysely, PostgresDialect } from 'kysely';
import { Client } from 'pg';
import { sql } from '@platform/db';
import { bindProbe, waitFor, type BrokerProbe } from '@platform/testing';
import { connectAmqp, startOutboxRelay, writeOutbox, type AmqpConnection, type OutboxRelay } from '../src';
import { commitEvents, event, logger, pendingIds, SCHEMA, setupSuite, suiteRelay, type Suite } from './support';

let suite: Suite;
/** A writer like one in a process that runs no relay: its commits are not hooked, so it NOTIFYs. */
let elsewhere: Kysely<unknown>;
let amqp: AmqpConnection;
let probe: BrokerProbe;
const relays: OutboxRelay[] = [];

beforeAll(async () => {
  suite = await setupSuite('relay_messages');
  elsewhere = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: suite.pool }) });
  amqp = await connectAmqp(suite.amqpUrl, logger);
  await amqp.ready();
  probe = await bindProbe(suite.amqpUrl, suite.exchange, ['#']);
});

afterEach(async () => {
  await Promise.all(relays.splice(0).map((r) => r.stop()));
});

afterAll(async () => {
  await probe.close();
  await amqp.close();
  await suite.close();
});

function relay(extra: Partial<Parameters<typeof startOutboxRelay>[0]> = {}) {
  const r = suiteRelay(suite, amqp, extra);
  relays.push(r);
  return r;
}

describe('outbox relay: messages', () => {
  it('when a transaction commits events, then each is published once with its content, message id, routing key and headers', async () => {
    relay();
    const [created, updated] = await commitEvents(suite.db, [
      event('domain.created', { domain_id: 'd1' }),
      event('domain.updated', { domain_id: 'd1' }),
    ]);

    const first = await probe.next((m) => m.id === created.id);
    const second = await probe.next((m) => m.id === updated.id);

    expect(first).toMatchObject({ ...created, routingKey: 'domain.created', messageId: created.id });
    expect(second).toMatchObject({ ...updated, routingKey: 'domain.updated', messageId: updated.id });
    expect(first.headers['x-request-id']).toEqual(expect.stringMatching(/^req_/));
    await waitFor(async () => (await pendingIds(suite.db)).length === 0, { what: 'rows marked published' });
    expect(probe.messages.filter((m) => m.id === created.id || m.id === updated.id)).toHaveLength(2);
  });

  it('when events of one aggregate are written together and later, then they are numbered 1, 2, 3 in order, per aggregate, as stored and as published', async () => {
    relay();
    const a = event('domain.created');
    const b = event('domain.created');
    const first = await commitEvents(suite.db, [a, b, { ...a, payload: { event: 'domain.updated', params: {} } }]);
    const [later] = await commitEvents(suite.db, [{ ...a, payload: { event: 'domain.deleted', params: {} } }]);

    expect(first.map((m) => [m.aggregate_id, m.version])).toEqual([
      [a.aggregateId, 1],
      [b.aggregateId, 1],
      [a.aggregateId, 2],
    ]);
    expect(later.version).toBe(3);
    for (const m of [...first, later]) expect((await probe.next((p) => p.id === m.id)).version).toBe(m.version);
  });

  it('when a transaction writing events rolls back, then nothing of it is published', async () => {
    relay();
    let rolledBackId = '';
    await expect(
      suite.db.transaction().execute(async (trx) => {
        [{ id: rolledBackId }] = await writeOutbox(trx, SCHEMA, 'test-svc', [event('domain.deleted')]);
        throw new Error('business rule failed');
      }),
    ).rejects.toThrow('business rule failed');
    // A later committed event is published; the relay has passed the rolled-back write's place.
    const [marker] = await commitEvents(suite.db, [event('domain.created')]);
    await probe.next((m) => m.id === marker.id);

    expect(rolledBackId).not.toBe('');
    expect(probe.messages.find((m) => m.id === rolledBackId)).toBeUndefined();
  });

  it('when an earlier-inserted event commits after a later one, then both are published', async () => {
    relay();
    let releaseEarly!: () => void;
    let earlyWritten!: () => void;
    const gate = new Promise<void>((r) => (releaseEarly = r));
    const written = new Promise<void>((r) => (earlyWritten = r));
    const early = suite.db.transaction().execute(async (trx) => {
      const [m] = await writeOutbox(trx, SCHEMA, 'test-svc', [event('domain.created', { order: 'early' })]);
      earlyWritten();
      await gate;
      return m;
    });
    await written;
    const [late] = await commitEvents(suite.db, [event('domain.created', { order: 'late' })]);
    await probe.next((m) => m.id === late.id);

    releaseEarly();
    const earlyMessage = await early;
    await probe.next((m) => m.id === earlyMessage.id);

    const { rows } = await sql<{
      id: string;
      created_at: Date;
    }>`SELECT id, created_at FROM svc.outbox WHERE id IN (${earlyMessage.id}, ${late.id})`.execute(suite.db);
    const at = Object.fromEntries(rows.map((r) => [r.id, r.created_at.getTime()]));
    expect(at[earlyMessage.id]).toBeLessThan(at[late.id]);
  });

  it('when two relays run on the same outbox, then every row is published exactly once', async () => {
    relay({ batchSize: 7 });
    relay({ batchSize: 7 });
    const written = (
      await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          commitEvents(
            suite.db,
            Array.from({ length: 10 }, () => event('merchant.linked', { i })),
          ),
        ),
      )
    ).flat();
    const ids = new Set(written.map((m) => m.id));

    await waitFor(async () => (await pendingIds(suite.db)).length === 0, {
      timeoutMs: 20_000,
      what: 'all rows published',
    });
    // Messages published before this sentinel are ahead of it in the probe's queue.
    const [sentinel] = await commitEvents(suite.db, [event('sentinel.done')]);
    await probe.next((m) => m.id === sentinel.id);

    const seen = probe.messages.filter((m) => ids.has(m.id)).map((m) => m.id);
    expect(seen).toHaveLength(200);
    expect(new Set(seen).size).toBe(200);
  });

  it('when this process runs the relay, then a commit wakes it directly and sends no NOTIFY', async () => {
    relay();
    const listener = new Client({ connectionString: suite.url });
    await listener.connect();
    try {
      const heard: string[] = [];
      listener.on('notification', (n) => heard.push(n.payload ?? ''));
      await listener.query(`LISTEN ${SCHEMA}_outbox`);
      const [m] = await commitEvents(suite.db, [event('domain.created')]);
      await probe.next((p) => p.id === m.id);
      // Notifications arrive in commit order: once this marker is heard, any NOTIFY of the write was too.
      await sql`SELECT pg_notify(${`${SCHEMA}_outbox`}, 'marker')`.execute(suite.db);
      await waitFor(async () => heard.includes('marker'), { what: 'the marker notification' });
      expect(heard).toEqual(['marker']);
    } finally {
      await listener.end();
    }
  });

  it('when the LISTEN connection is killed, then the relay listens again and is woken by the next NOTIFY', async () => {
    relay();
    const [before] = await commitEvents(elsewhere, [event('domain.created')]);
    await probe.next((m) => m.id === before.id);

    const killed = await sql<{ pid: number }>`
      SELECT pid, pg_terminate_backend(pid) FROM pg_stat_activity
      WHERE datname = current_database() AND query LIKE 'LISTEN%' AND pid <> pg_backend_pid()`.execute(suite.db);
    expect(killed.rows.length).toBeGreaterThan(0);
    // Listening again is observable: a LISTEN backend other than the killed ones appears.
    const killedPids = killed.rows.map((r) => r.pid);
    await waitFor(
      async () => {
        const { rows } = await sql<{ pid: number }>`
        SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%' AND state = 'idle'`.execute(
          suite.db,
        );
        return rows.some((r) => !killedPids.includes(r.pid));
      },
      { what: 'LISTEN re-established' },
    );

    const [after] = await commitEvents(elsewhere, [event('domain.updated')]);
    await probe.next((m) => m.id === after.id);
  });

  it('when the relay does not poll by itself (a job runner sweeps it), then each sweep resolves once the rows pending before it are published', async () => {
    // No LISTEN connection (only a db), no poll of its own, and writes from elsewhere: only sweep() publishes.
    const r = relay({ pool: undefined, db: suite.db, selfPoll: false, batchSize: 3 });
    await r.sweep();
    const written = await commitEvents(
      elsewhere,
      Array.from({ length: 7 }, () => event('domain.changed')),
    );
    const ids = written.map((m) => m.id);
    const pendingOfThisTest = async () => (await pendingIds(suite.db)).filter((id) => ids.includes(id));
    expect(await pendingOfThisTest()).toEqual(ids);

    await r.sweep();

    expect(await pendingOfThisTest()).toEqual([]);
    for (const m of written) await probe.next((p) => p.id === m.id);
  });

  it('when drain is called, then every pending row is published before it resolves', async () => {
    const r = relay({ batchSize: 3 });
    const written = await commitEvents(
      suite.db,
      Array.from({ length: 8 }, () => event('subscription.changed')),
    );

    await r.drain();

    expect(await pendingIds(suite.db)).toEqual([]);
    for (const m of written) await probe.next((p) => p.id === m.id);
  });
});
