import { bindProbe, waitFor, type BrokerProbe } from '@platform/testing';
import { connectAmqp, type AmqpConnection } from '../src';
import {
  closedPort,
  commitEvents,
  event,
  logger,
  pendingIds,
  setupSuite,
  startBrokerProxy,
  suiteRelay,
  type Suite,
} from './support';

let suite: Suite;
let probe: BrokerProbe;
const cleanup: Array<() => Promise<unknown>> = [];

beforeAll(async () => {
  suite = await setupSuite('relay_resilience');
  probe = await bindProbe(suite.amqpUrl, suite.exchange, ['#']);
});

afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

afterAll(async () => {
  await probe.close();
  await suite.close();
});

async function connect(url: string): Promise<AmqpConnection> {
  const amqp = await connectAmqp(url, logger, { initialDelayMs: 50, maxDelayMs: 300 });
  cleanup.push(() => amqp.close());
  return amqp;
}

function relay(amqp: AmqpConnection) {
  const r = suiteRelay(suite, amqp, { pollIntervalMs: 100, channelWaitMs: 300 });
  cleanup.push(() => r.stop());
  return r;
}

describe('outbox relay: batches in flight', () => {
  it('when a batch waits for its confirms, then later rows are claimed and published meanwhile, and every row is marked once the confirms come', async () => {
    const proxy = await startBrokerProxy(suite.amqpUrl);
    cleanup.push(() => proxy.close());
    const amqp = await connect(proxy.url);
    await amqp.ready();
    relay(amqp);
    const [warm] = await commitEvents(suite.db, [event('domain.created')]);
    await waitFor(async () => !(await pendingIds(suite.db)).includes(warm.id), { what: 'the publishing channel open' });

    proxy.holdReplies();
    const [first] = await commitEvents(suite.db, [event('domain.created')]);
    await probe.next((p) => p.id === first.id);
    // The first batch has no confirm yet, so it has not committed: the second is claimed beside it.
    const [second] = await commitEvents(suite.db, [event('domain.updated')]);
    await probe.next((p) => p.id === second.id);
    expect(await pendingIds(suite.db)).toEqual(expect.arrayContaining([first.id, second.id]));

    proxy.releaseReplies();
    await waitFor(async () => (await pendingIds(suite.db)).length === 0, { what: 'both batches committed' });
    expect(probe.messages.filter((m) => m.id === first.id || m.id === second.id)).toHaveLength(2);
  });
});

describe('outbox relay: broker outages', () => {
  it('when the broker is unreachable, then rows stay pending and are published once a relay reaches it', async () => {
    const down = relay(await connect(`amqp://guest:guest@127.0.0.1:${await closedPort()}`));
    const [m] = await commitEvents(suite.db, [event('domain.created')]);

    await expect(down.drain()).rejects.toThrow(/could not be published/);
    expect(await pendingIds(suite.db)).toEqual([m.id]);
    await down.stop();

    relay(await connect(suite.amqpUrl));
    const published = await probe.next((p) => p.id === m.id);
    expect(published.messageId).toBe(m.id);
    await waitFor(async () => (await pendingIds(suite.db)).length === 0, { what: 'row marked published' });
  });

  it('when the connection drops and comes back, then the relay reconnects and publishes what was written meanwhile', async () => {
    const proxy = await startBrokerProxy(suite.amqpUrl);
    cleanup.push(() => proxy.close());
    const amqp = await connect(proxy.url);
    await amqp.ready();
    const r = relay(amqp);
    const [before] = await commitEvents(suite.db, [event('domain.created')]);
    await probe.next((p) => p.id === before.id);

    proxy.down();
    await waitFor(() => !amqp.isConnected(), { what: 'connection loss noticed' });
    const [during] = await commitEvents(suite.db, [event('domain.updated')]);
    await expect(r.drain()).rejects.toThrow(/could not be published/);
    expect(await pendingIds(suite.db)).toEqual([during.id]);

    proxy.up();
    await probe.next((p) => p.id === during.id, 15_000);
    await waitFor(async () => (await pendingIds(suite.db)).length === 0, { what: 'row marked published' });
    expect(probe.messages.filter((p) => p.id === during.id)).toHaveLength(1);
  });
});
