import { randomUUID } from 'node:crypto';
import type { EventMessage } from '@platform/contracts';
import { sql, type Transaction } from '@platform/db';
import { waitFor } from '@platform/testing';
import {
  connectAmqp,
  createPublisher,
  replayParked,
  startConsumer,
  type AmqpConnection,
  type Consumer,
  type ConsumerOptions,
  type Publisher,
} from '../src';
import { logger, SCHEMA, setupSuite, startBrokerProxy, takeMessages, type QueuedMessage, type Suite } from './support';

let suite: Suite;
let amqp: AmqpConnection;
let publisher: Publisher;
const consumers: Consumer[] = [];

beforeAll(async () => {
  suite = await setupSuite('consumer');
  amqp = await connectAmqp(suite.amqpUrl, logger);
  await amqp.ready();
  publisher = createPublisher(amqp, logger);
});

afterEach(async () => {
  await Promise.all(consumers.splice(0).map((c) => c.stop()));
});

afterAll(async () => {
  await publisher.close();
  await amqp.close();
  await suite.close();
});

type Handler = ConsumerOptions<unknown>['handler'];
const RETRY_DELAYS = [50, 100];

async function consume(handler: Handler, extra: Partial<ConsumerOptions<unknown>> = {}) {
  const queue = suite.consumerQueue('q', (extra.retryDelaysMs ?? RETRY_DELAYS).length);
  const consumer = startConsumer({
    amqp,
    pool: suite.pool,
    schema: SCHEMA,
    exchange: suite.exchange,
    queue,
    bindings: ['test.*'],
    handler,
    logger,
    retryDelaysMs: RETRY_DELAYS,
    ...extra,
  });
  consumers.push(consumer);
  await consumer.ready();
  return queue;
}

function message(event = 'test.happened'): EventMessage {
  return {
    id: randomUUID(),
    partner_id: 'partner-1',
    occurred_at: new Date().toISOString(),
    source: 'test',
    aggregate_id: 'a-1',
    version: 1,
    payload: { event, params: { n: 1 } },
  };
}

async function send(
  m: EventMessage | string,
  routingKey = 'test.happened',
  messageId = typeof m === 'string' ? randomUUID() : m.id,
) {
  await publisher.publish(suite.exchange, routingKey, Buffer.from(typeof m === 'string' ? m : JSON.stringify(m)), {
    messageId,
  });
}

/** The handler's effect: a row written in the consumer's transaction. */
async function recordEffect(m: EventMessage, trx: Transaction<unknown>) {
  await sql`INSERT INTO svc.effects (message_id, note) VALUES (${m.id}, ${m.payload.event})`.execute(trx);
}

async function effects(id: string): Promise<number> {
  const { rows } = await sql<{
    n: number;
  }>`SELECT count(*)::int AS n FROM svc.effects WHERE message_id = ${id}`.execute(suite.db);
  return rows[0].n;
}

/** Collects messages from `<queue>.parked` until `count` arrived. */
async function parkedMessages(queue: string, count: number): Promise<QueuedMessage[]> {
  const parked: QueuedMessage[] = [];
  await waitFor(
    async () => {
      parked.push(...(await takeMessages(suite.amqpUrl, `${queue}.parked`)));
      return parked.length >= count;
    },
    { what: `${count} parked messages` },
  );
  return parked;
}

async function amqpQueueDepth(queue: string): Promise<number> {
  const ch = await amqp.createConfirmChannel();
  try {
    return (await ch.checkQueue(queue)).messageCount;
  } finally {
    await ch.close();
  }
}

describe('consumer: handling', () => {
  it('when a message arrives, then the handler commits its effect with the message', async () => {
    const seen: EventMessage[] = [];
    await consume(async (m, trx) => {
      seen.push(m);
      await recordEffect(m, trx);
    });
    const m = message();

    await send(m);

    await waitFor(async () => (await effects(m.id)) === 1, { what: 'effect committed' });
    expect(seen).toEqual([m]);
  });

  it('when the same message id is delivered twice, then its effect happens once', async () => {
    let calls = 0;
    // prefetch 1: deliveries are handled in order, so the sentinel proves the duplicate was handled.
    await consume(
      async (m, trx) => {
        calls += 1;
        await recordEffect(m, trx);
      },
      { prefetch: 1 },
    );
    const m = message();
    const sentinel = message();

    await send(m);
    await send(m);
    await send(sentinel);

    await waitFor(async () => (await effects(sentinel.id)) === 1, { what: 'sentinel handled' });
    expect(await effects(m.id)).toBe(1);
    expect(calls).toBe(2);
  });

  it('when the handler fails and then succeeds, then the message is retried after a delay and its effect happens once', async () => {
    const attempts: number[] = [];
    await consume(async (m, trx) => {
      attempts.push(Date.now());
      await recordEffect(m, trx);
      if (attempts.length < 3) throw new Error('downstream not ready');
    });
    const m = message();

    await send(m);

    await waitFor(async () => (await effects(m.id)) === 1, { what: 'effect after retries' });
    expect(attempts).toHaveLength(3);
    expect(attempts[1] - attempts[0]).toBeGreaterThanOrEqual(RETRY_DELAYS[0]);
    expect(attempts[2] - attempts[1]).toBeGreaterThanOrEqual(RETRY_DELAYS[1]);
  });

  it('when the handler keeps failing, then the message is parked after the last attempt with its error', async () => {
    let calls = 0;
    const queue = await consume(async () => {
      calls += 1;
      throw new Error('always broken');
    });
    const m = message();

    await send(m);

    const parked = await parkedMessages(queue, 1);
    expect(parked).toHaveLength(1);
    expect(JSON.parse(parked[0].content)).toEqual(m);
    expect(parked[0].messageId).toBe(m.id);
    expect(parked[0].headers).toMatchObject({
      'x-parked-reason': 'attempts exhausted',
      'x-attempt': 3,
      'x-last-error': 'always broken',
    });
    expect(calls).toBe(RETRY_DELAYS.length + 1);
    expect(await effects(m.id)).toBe(0);
  });

  it('when an operator replays a parked message after the cause is fixed, then it is handled once', async () => {
    let broken = true;
    const queue = await consume(
      async (m, trx) => {
        if (broken) throw new Error('bug');
        await recordEffect(m, trx);
      },
      { maxAttempts: 1 },
    );
    const m = message();
    await send(m);
    await waitFor(async () => (await amqpQueueDepth(`${queue}.parked`)) === 1, { what: 'message parked' });

    broken = false;
    const moved = await replayParked({ amqp, queue, logger });

    expect(moved).toBe(1);
    await waitFor(async () => (await effects(m.id)) === 1, { what: 'effect after replay' });
    expect(await amqpQueueDepth(`${queue}.parked`)).toBe(0);
  });

  it('when many messages wait in the queue, then they are handled in batches, one transaction for many, each effect once', async () => {
    const queue = suite.consumerQueue('q', RETRY_DELAYS.length);
    const options = {
      amqp,
      pool: suite.pool,
      schema: SCHEMA,
      exchange: suite.exchange,
      queue,
      bindings: ['test.*'],
      logger,
      retryDelaysMs: RETRY_DELAYS,
    };
    const first = startConsumer({ ...options, handler: recordEffect });
    await first.ready();
    await first.stop();
    const sent = Array.from({ length: 200 }, () => message());
    await Promise.all(sent.map((m) => send(m)));

    // The effect's note is the transaction that wrote it.
    consumers.push(
      startConsumer({
        ...options,
        handler: (m, trx) =>
          sql`INSERT INTO svc.effects (message_id, note) SELECT ${m.id}, txid_current()::text`
            .execute(trx)
            .then(() => undefined),
      }),
    );

    const ids = sent.map((m) => m.id);
    await waitFor(
      async () =>
        (
          await sql<{ n: number }>`SELECT count(*)::int AS n FROM svc.effects WHERE message_id = ANY(${ids})`.execute(
            suite.db,
          )
        ).rows[0].n >= 200,
      {
        what: '200 effects',
      },
    );
    const { rows } = await sql<{ messages: number; transactions: number }>`
      SELECT count(*)::int AS messages, count(DISTINCT note)::int AS transactions FROM svc.effects WHERE message_id = ANY(${ids})`.execute(
      suite.db,
    );
    expect(rows[0].messages).toBe(200);
    // The default prefetch (50) lets up to 50 share a transaction.
    expect(rows[0].transactions).toBeLessThanOrEqual(20);
  });

  it('when messages of an event with a batch handler wait in the queue, then the batch handler takes them together, in order, each once', async () => {
    const queue = suite.consumerQueue('q', RETRY_DELAYS.length);
    const calls: string[][] = [];
    const options = {
      amqp,
      pool: suite.pool,
      schema: SCHEMA,
      exchange: suite.exchange,
      queue,
      bindings: ['test.*'],
      logger,
      retryDelaysMs: RETRY_DELAYS,
      batchHandlers: {
        'test.happened': async (ms: EventMessage[], trx: Transaction<unknown>) => {
          calls.push(ms.map((m) => m.id));
          for (const m of ms) await recordEffect(m, trx);
        },
      } as ConsumerOptions<unknown>['batchHandlers'],
    };
    const first = startConsumer(options);
    await first.ready();
    await first.stop();
    const sent = Array.from({ length: 100 }, () => message());
    for (const m of sent) await send(m);
    await send(sent[3]);

    consumers.push(startConsumer(options));

    await waitFor(
      async () =>
        (
          await sql<{
            n: number;
          }>`SELECT count(*)::int AS n FROM svc.effects WHERE message_id = ANY(${sent.map((m) => m.id)})`.execute(
            suite.db,
          )
        ).rows[0].n >= 100,
      {
        what: '100 effects',
      },
    );
    expect(calls.flat()).toEqual(sent.map((m) => m.id));
    expect(calls.length).toBeLessThanOrEqual(10);
  });

  it('when one message of a batch keeps failing, then the others commit once and only it is retried and parked', async () => {
    const queue = suite.consumerQueue('q', RETRY_DELAYS.length);
    const poison = message();
    const calls = new Map<string, number>();
    const options = {
      amqp,
      pool: suite.pool,
      schema: SCHEMA,
      exchange: suite.exchange,
      queue,
      bindings: ['test.*'],
      logger,
      retryDelaysMs: RETRY_DELAYS,
      handler: async (m: EventMessage, trx: Transaction<unknown>) => {
        calls.set(m.id, (calls.get(m.id) ?? 0) + 1);
        await recordEffect(m, trx);
        if (m.id === poison.id) throw new Error('poison');
      },
    };
    const first = startConsumer(options);
    await first.ready();
    await first.stop();
    const others = Array.from({ length: 30 }, () => message());
    for (const m of [...others.slice(0, 15), poison, ...others.slice(15)]) await send(m);

    consumers.push(startConsumer(options));

    const parked = await parkedMessages(queue, 1);
    expect(parked[0].messageId).toBe(poison.id);
    expect(parked[0].headers).toMatchObject({
      'x-parked-reason': 'attempts exhausted',
      'x-attempt': 3,
      'x-last-error': 'poison',
    });
    for (const m of others) expect(await effects(m.id)).toBe(1);
    expect(await effects(poison.id)).toBe(0);
    // Each of the others ran at most in the failed batch and once more alone; the poison once per attempt (plus in the batch).
    expect(Math.max(...others.map((m) => calls.get(m.id) ?? 0))).toBeLessThanOrEqual(2);
    expect(calls.get(poison.id)).toBeLessThanOrEqual(RETRY_DELAYS.length + 2);
  });

  it('when a message is not valid JSON or not an event envelope, then it is parked without calling the handler', async () => {
    let calls = 0;
    const queue = await consume(async () => {
      calls += 1;
    });

    await send('not json at all');
    await send(JSON.stringify({ id: 'not-a-uuid', payload: {} }));

    const all = await parkedMessages(queue, 2);
    expect(all.map((p) => p.content).sort()).toEqual(
      [JSON.stringify({ id: 'not-a-uuid', payload: {} }), 'not json at all'].sort(),
    );
    expect(all.every((p) => p.headers['x-parked-reason'] === 'invalid')).toBe(true);
    expect(calls).toBe(0);
  });

  it('when the consumer is stopped and a message arrives, then a restarted consumer handles it', async () => {
    const queue = suite.consumerQueue('q', RETRY_DELAYS.length);
    const options = {
      amqp,
      pool: suite.pool,
      schema: SCHEMA,
      exchange: suite.exchange,
      queue,
      bindings: ['test.*'],
      handler: recordEffect,
      logger,
      retryDelaysMs: RETRY_DELAYS,
    };
    const first = startConsumer(options);
    await first.ready();
    await first.stop();
    const m = message();

    await send(m);
    consumers.push(startConsumer(options));

    await waitFor(async () => (await effects(m.id)) === 1, { what: 'effect after restart' });
  });

  it('when the consumer loses its connection, then it reconnects, re-consumes and handles new messages', async () => {
    const proxy = await startBrokerProxy(suite.amqpUrl);
    const viaProxy = await connectAmqp(proxy.url, logger, { initialDelayMs: 50, maxDelayMs: 300 });
    try {
      await consume(recordEffect, { amqp: viaProxy });
      proxy.down();
      await waitFor(() => !viaProxy.isConnected(), { what: 'connection loss noticed' });
      proxy.up();
      await waitFor(() => viaProxy.isConnected(), { timeoutMs: 15_000, what: 'reconnected' });
      const m = message();

      // The consumer's queue is durable: a message sent while it re-opens its channel waits there.
      await send(m);

      await waitFor(async () => (await effects(m.id)) === 1, { timeoutMs: 15_000, what: 'effect after reconnect' });
    } finally {
      await Promise.all(consumers.splice(0).map((c) => c.stop()));
      await viaProxy.close();
      await proxy.close();
    }
  });
});
