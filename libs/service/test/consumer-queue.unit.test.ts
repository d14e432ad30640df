import { consumerQueue } from '../src/runtime';

describe('consumerQueue', () => {
  it.each([
    ['billing-svc', 'partner.events.billing-svc'],
    ['domains-svc', 'partner.events.domains-svc'],
    ['merchants-svc', 'partner.events.merchants-svc'],
    ['webhook-svc', 'partner.events.webhook-svc'],
  ])('when %s consumes, then its queue keeps the name deployed queues have (%s)', (service, queue) => {
    expect(consumerQueue('partner.events', service)).toBe(queue);
  });

  it('when a service names a second consumer, then its queue is the service queue with that name after it', () => {
    expect(consumerQueue('partner.events', 'domains-svc', 'scans')).toBe('partner.events.domains-svc.scans');
  });
});
