import { deleteEventTopology, testInfra, uniqueName, waitFor } from '@platform/testing';
import { connectAmqp, createPublisher } from '../src';
import { closedPort, logger, startBrokerProxy } from './support';

// Two "nodes" of one cluster: two proxies in front of the test broker, each of which can go down.
describe('connection: AMQP_URL listing several nodes', () => {
  const exchange = uniqueName('ex');
  let amqpUrl: string;
  beforeAll(async () => ({ amqpUrl } = await testInfra()));
  afterAll(() => deleteEventTopology(amqpUrl, exchange));

  it('when the first node refuses, then the client connects to the next one', async () => {
    const amqp = await connectAmqp(`amqp://guest:guest@127.0.0.1:${await closedPort()},${amqpUrl}`, logger, {
      initialDelayMs: 50,
      maxDelayMs: 200,
    });
    try {
      await amqp.ready(5_000);
      expect(amqp.isConnected()).toBe(true);
    } finally {
      await amqp.close();
    }
  });

  it('when the node a client is connected to goes down, then it reconnects to another and publishes with confirms again', async () => {
    const [first, second] = [await startBrokerProxy(amqpUrl), await startBrokerProxy(amqpUrl)];
    const amqp = await connectAmqp(`${first.url},${second.url}`, logger, { initialDelayMs: 50, maxDelayMs: 200 });
    const publisher = createPublisher(amqp, logger);
    try {
      await amqp.ready(5_000);
      await publisher.publish(exchange, 'before.loss', Buffer.from('{}'), { messageId: uniqueName('m') });
      // The first node dies: its connections drop and it refuses new ones; only the second can serve.
      first.down();
      // A publish racing the loss may fail (the relay retries those); one soon succeeds through the second node.
      await waitFor(
        async () => {
          await publisher.publish(exchange, 'after.loss', Buffer.from('{}'), { messageId: uniqueName('m') });
          return true;
        },
        { timeoutMs: 10_000, intervalMs: 100, what: 'a confirmed publish through the second node' },
      );
      expect(amqp.isConnected()).toBe(true);
    } finally {
      await publisher.close();
      await amqp.close();
      await first.close();
      await second.close();
    }
  });
});
