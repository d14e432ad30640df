import { connect, type Channel } from 'amqplib';
import { connectAmqp, consumerQueueNames, startConsumer, unroutedExchangeName } from '../src';
import { logger, SCHEMA, setupSuite } from './support';

/** Which of the given queues and exchanges exist on the broker (a passive declare each, on its own channel). */
async function existing(amqpUrl: string, names: { queues: string[]; exchanges: string[] }): Promise<string[]> {
  const connection = await connect(amqpUrl);
  connection.on('error', () => undefined);
  const found: string[] = [];
  const check = async (name: string, passive: (channel: Channel) => Promise<unknown>) => {
    const channel = await connection.createChannel();
    channel.on('error', () => undefined);
    try {
      await passive(channel);
      found.push(name);
      await channel.close();
    } catch {
      // 404 NOT_FOUND closes the channel: the object is not there.
    }
  };
  try {
    for (const queue of names.queues) await check(`queue ${queue}`, (ch) => ch.checkQueue(queue));
    for (const exchange of names.exchanges) await check(`exchange ${exchange}`, (ch) => ch.checkExchange(exchange));
  } finally {
    await connection.close().catch(() => undefined);
  }
  return found;
}

describe('test suites clean up the broker', () => {
  it('when a suite closes, then its exchange, unrouted exchange and queue, and its consumer queues are gone', async () => {
    const suite = await setupSuite('cleanup');
    let closed = false;
    try {
      const amqp = await connectAmqp(suite.amqpUrl, logger);
      const queue = suite.consumerQueue('q', 2);
      try {
        await amqp.ready();
        const consumer = startConsumer({
          amqp,
          pool: suite.pool,
          schema: SCHEMA,
          exchange: suite.exchange,
          queue,
          bindings: ['x.*'],
          handler: async () => undefined,
          logger,
          retryDelaysMs: [50, 100],
        });
        await consumer.ready();
        await consumer.stop();
      } finally {
        await amqp.close();
      }
      const { work, parked, retry } = consumerQueueNames(queue, 2);
      const declared = {
        queues: [work, parked, ...retry, unroutedExchangeName(suite.exchange)],
        exchanges: [suite.exchange, unroutedExchangeName(suite.exchange)],
      };
      const all = [...declared.queues.map((q) => `queue ${q}`), ...declared.exchanges.map((e) => `exchange ${e}`)];
      expect(await existing(suite.amqpUrl, declared)).toEqual(all);

      closed = true;
      await suite.close();

      expect(await existing(suite.amqpUrl, declared)).toEqual([]);
    } finally {
      if (!closed) await suite.close();
    }
  });
});
