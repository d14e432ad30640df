import { randomUUID } from 'node:crypto';
import type { DomainState, EventMessage } from '@platform/contracts';
import { sql } from '@platform/db';
import { uniqueName, waitFor } from '@platform/testing';
import {
  applyIfNewer,
  connectAmqp,
  createPublisher,
  startConsumer,
  type AmqpConnection,
  type Consumer,
  type Publisher,
} from '../src';
import { logger, SCHEMA, setupSuite, takeMessages, type Suite } from './support';

let suite: Suite;
let amqp: AmqpConnection;
let publisher: Publisher;
let consumer: Consumer;
let queue: string;
const handled: string[] = [];

/** A projection of domains, as billing or merchants will keep one: status per domain, and how often it was applied. */
beforeAll(async () => {
  suite = await setupSuite('projection');
  await sql`CREATE TABLE svc.domain_projection (id text PRIMARY KEY, status text NOT NULL, version int NOT NULL, applied int NOT NULL)`.execute(
    suite.db,
  );
  amqp = await connectAmqp(suite.amqpUrl, logger);
  await amqp.ready();
  publisher = createPublisher(amqp, logger);
  queue = suite.consumerQueue('projection', 1);
  consumer = startConsumer({
    amqp,
    pool: suite.pool,
    schema: SCHEMA,
    exchange: suite.exchange,
    queue,
    logger,
    prefetch: 1,
    retryDelaysMs: [50],
    handlers: {
      // The payload is typed from the event registry: params.domain is a DomainState.
      'domain.changed': async (m, trx) => {
        handled.push(m.id);
        if (!(await applyIfNewer(trx, SCHEMA, 'domain_projection', m.aggregate_id, m.version))) return;
        const d = m.payload.params.domain;
        await sql`
          INSERT INTO svc.domain_projection (id, status, version, applied) VALUES (${d.id}, ${d.status}, ${m.version}, 1)
          ON CONFLICT (id) DO UPDATE SET status = EXCLUDED.status, version = EXCLUDED.version, applied = svc.domain_projection.applied + 1`.execute(
          trx,
        );
      },
    },
  });
  await consumer.ready();
});

afterAll(async () => {
  await consumer?.stop();
  await publisher.close();
  await amqp.close();
  await suite.close();
});

const state = (id: string, status: DomainState['status']): DomainState => ({
  id,
  hostname: `${id}.example.com`,
  subdomains: [],
  status,
  is_active: status !== 'INACTIVE',
  source: 'API',
  property_id: randomUUID(),
  company_id: randomUUID(),
  company_name: 'Co',
  owner_email: 'o@example.com',
  merchants: [],
  created_at: new Date().toISOString(),
  updated_at: new Date().toISOString(),
  activated_at: null,
});

const changed = (id: string, version: number, status: DomainState['status']): EventMessage => ({
  id: randomUUID(),
  partner_id: 'p1',
  occurred_at: new Date().toISOString(),
  source: 'test',
  aggregate_id: id,
  version,
  payload: { event: 'domain.changed', params: { change: 'updated', domain: state(id, status) } },
});

/** Publishes and waits until the consumer has handled (or skipped as a duplicate) this delivery. */
async function deliver(m: EventMessage | { raw: object; id: string }) {
  const processed = async () =>
    (
      await sql<{
        n: number;
      }>`SELECT count(*)::int AS n FROM svc.processed_messages WHERE message_id = ${m.id}`.execute(suite.db)
    ).rows[0].n;
  const before = handled.length;
  const body = 'raw' in m ? m.raw : m;
  await publisher.publish(suite.exchange, 'domain.changed', Buffer.from(JSON.stringify(body)), { messageId: m.id });
  // The sentinel (a newer aggregate of its own) proves the delivery ahead of it was handled: prefetch 1 keeps order.
  const sentinel = changed(uniqueName('sentinel'), 1, 'NEW');
  await publisher.publish(suite.exchange, 'domain.changed', Buffer.from(JSON.stringify(sentinel)), {
    messageId: sentinel.id,
  });
  await waitFor(async () => handled.includes(sentinel.id) || undefined, { what: 'the sentinel' });
  return { processed: await processed(), handledNow: handled.length - before - 1 };
}

const projected = async (id: string) =>
  (
    await sql<{
      status: string;
      version: number;
      applied: number;
    }>`SELECT status, version, applied FROM svc.domain_projection WHERE id = ${id}`.execute(suite.db)
  ).rows[0];

describe('projections from versioned events', () => {
  it("when one aggregate's events arrive out of order and twice, then the projection holds the highest version, applied once", async () => {
    const id = uniqueName('dom');
    const v1 = changed(id, 1, 'NEW');
    const v2 = changed(id, 2, 'INVITED');
    const v3 = changed(id, 3, 'ACTIVE');
    await deliver(v3);
    await deliver(v1);
    await deliver(v3);
    await deliver(v2);
    expect(await projected(id)).toEqual({ status: 'ACTIVE', version: 3, applied: 1 });
  });

  it('when versions arrive with a gap filled later, then each newer one applies and an older one never overwrites', async () => {
    const id = uniqueName('dom');
    await deliver(changed(id, 1, 'NEW'));
    await deliver(changed(id, 3, 'INACTIVE'));
    await deliver(changed(id, 2, 'ACTIVE'));
    expect(await projected(id)).toEqual({ status: 'INACTIVE', version: 3, applied: 2 });
  });

  it("when a registered event's payload fails its schema, then it is parked at once, never retried or handled", async () => {
    const bad = {
      ...changed(uniqueName('dom'), 1, 'NEW'),
      payload: { event: 'domain.changed', params: { change: 'updated', domain: { id: 'x' } } },
    };
    const { handledNow } = await deliver({ raw: bad, id: bad.id });
    expect(handledNow).toBe(0);
    const parked = await waitFor(
      async () => {
        const messages = await takeMessages(suite.amqpUrl, `${queue}.parked`);
        return messages.length > 0 ? messages : undefined;
      },
      { what: 'the parked message' },
    );
    expect(parked.map((p) => [p.messageId, p.headers['x-parked-reason'], p.headers['x-attempt']])).toEqual([
      [bad.id, 'invalid', undefined],
    ]);
  });
});
