import { randomUUID } from 'node:crypto';
import { bindProbe, deleteBrokerTopology, deleteEventTopology, testInfra, uniqueName } from '@platform/testing';
import {
  ChannelClosedError,
  ConfirmTimeoutError,
  connectAmqp,
  createPublisher,
  UnroutableError,
  unroutedExchangeName,
  type AmqpConnection,
} from '../src';
import { logger, startBrokerProxy, takeMessages } from './support';

let amqpUrl: string;
const exchanges: string[] = [];
const cleanup: Array<() => Promise<unknown>> = [];

beforeAll(async () => {
  ({ amqpUrl } = await testInfra());
});

afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

afterAll(async () => {
  for (const exchange of exchanges) await deleteEventTopology(amqpUrl, exchange);
});

async function connect(url: string): Promise<AmqpConnection> {
  const amqp = await connectAmqp(url, logger, { initialDelayMs: 50, maxDelayMs: 300 });
  cleanup.push(() => amqp.close());
  await amqp.ready();
  return amqp;
}

function newExchange() {
  const e = uniqueName('ex');
  exchanges.push(e);
  return e;
}

const body = (event: string) => Buffer.from(JSON.stringify({ id: randomUUID(), event }));

describe('publisher: confirms', () => {
  it('when nobody is bound to the routing key, then the publish is confirmed and kept in the unrouted queue', async () => {
    const exchange = newExchange();
    const publisher = createPublisher(await connect(amqpUrl), logger);
    cleanup.push(() => publisher.close());

    const messageId = randomUUID();
    await expect(publisher.publish(exchange, 'nobody.listens', body('x'), { messageId })).resolves.toBeUndefined();

    expect((await takeMessages(amqpUrl, unroutedExchangeName(exchange))).map((m) => m.messageId)).toEqual([messageId]);
  });

  it('when the alternate exchange is gone, then the publish rejects as unroutable and the next publish re-declares it', async () => {
    const exchange = newExchange();
    const amqp = await connect(amqpUrl);
    const publisher = createPublisher(amqp, logger);
    cleanup.push(() => publisher.close());
    await publisher.publish(exchange, 'warm.up', body('x'), { messageId: randomUUID() });
    await deleteBrokerTopology(amqpUrl, { exchanges: [unroutedExchangeName(exchange)] });

    await expect(
      publisher.publish(exchange, 'nobody.listens', body('x'), { messageId: randomUUID() }),
    ).rejects.toBeInstanceOf(UnroutableError);
    await expect(
      publisher.publish(exchange, 'nobody.listens', body('x'), { messageId: randomUUID() }),
    ).resolves.toBeUndefined();
  });

  it('when a queue is bound, then the confirmed message carries its message id and headers', async () => {
    const exchange = newExchange();
    const publisher = createPublisher(await connect(amqpUrl), logger);
    cleanup.push(() => publisher.close());
    const probe = await bindProbe(amqpUrl, exchange, ['domain.*']);
    cleanup.push(() => probe.close());
    const messageId = randomUUID();

    await publisher.publish(exchange, 'domain.created', body('domain.created'), {
      messageId,
      headers: { 'x-request-id': 'req-7' },
    });

    const got = await probe.next();
    expect(got).toMatchObject({ routingKey: 'domain.created', messageId, headers: { 'x-request-id': 'req-7' } });
  });

  it('when the broker never confirms, then the publish rejects after the confirm timeout', async () => {
    const exchange = newExchange();
    const proxy = await startBrokerProxy(amqpUrl);
    cleanup.push(() => proxy.close());
    const publisher = createPublisher(await connect(proxy.url), logger, { confirmTimeoutMs: 300 });
    cleanup.push(() => publisher.close());
    await publisher.publish(exchange, 'warm.up', body('x'), { messageId: randomUUID() });

    proxy.blackhole();
    await expect(
      publisher.publish(exchange, 'domain.created', body('x'), { messageId: randomUUID() }),
    ).rejects.toBeInstanceOf(ConfirmTimeoutError);
  });

  it('when the connection drops with a publish outstanding, then that publish rejects at once', async () => {
    const exchange = newExchange();
    const proxy = await startBrokerProxy(amqpUrl);
    cleanup.push(() => proxy.close());
    const publisher = createPublisher(await connect(proxy.url), logger, { confirmTimeoutMs: 30_000 });
    cleanup.push(() => publisher.close());
    await publisher.publish(exchange, 'warm.up', body('x'), { messageId: randomUUID() });

    proxy.blackhole();
    const outstanding = publisher.publish(exchange, 'domain.created', body('x'), { messageId: randomUUID() });
    const started = Date.now();
    proxy.down();

    await expect(outstanding).rejects.toBeInstanceOf(ChannelClosedError);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
