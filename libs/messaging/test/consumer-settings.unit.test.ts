import { consumerSettings } from '../src/consumer-settings';

const noop = async () => undefined;
const base = { exchange: 'ex', queue: 'q' };

describe('consumer settings', () => {
  it('when no bindings are given, then the consumer binds the events it has handlers and batch handlers for, each once', () => {
    const settings = consumerSettings({
      ...base,
      handlers: { 'domain.created': noop },
      batchHandlers: { 'domain.created': noop, 'subscription.changed': noop },
    });
    expect(settings.topology.bindings).toEqual(['domain.created', 'subscription.changed']);
  });

  it('when only defaults apply, then it takes 50 at once, batches as many, retries on three delay queues and parks after four attempts', () => {
    expect(consumerSettings({ ...base, handler: noop, bindings: ['#'] })).toEqual({
      topology: {
        exchange: 'ex',
        queue: 'q',
        bindings: ['#'],
        retryDelaysMs: [1_000, 5_000, 30_000],
        deliveryLimit: 5,
      },
      policy: { maxAttempts: 4, retryQueues: ['q.retry.1', 'q.retry.2', 'q.retry.3'], parkedQueue: 'q.parked' },
      prefetch: 50,
      maxBatch: 50,
      confirmTimeoutMs: 5_000,
    });
  });

  it('when a batch size below one is given, then a batch holds one message', () => {
    expect(consumerSettings({ ...base, handler: noop, bindings: ['#'], prefetch: 10, maxBatch: 0 })).toMatchObject({
      prefetch: 10,
      maxBatch: 1,
    });
  });

  it('when there are neither bindings nor handlers, then the consumer is refused', () => {
    expect(() => consumerSettings({ ...base, handler: noop })).toThrow('startConsumer needs bindings or handlers');
  });

  it('when there are bindings but no handler at all, then the consumer is refused', () => {
    expect(() => consumerSettings({ ...base, bindings: ['#'] })).toThrow('startConsumer needs handlers or a handler');
  });
});
