import { ChannelClosedError, PublishNackedError, UnroutableError, confirmError } from '../src/publisher';

const out = { exchange: 'ex', routingKey: 'domain.created', messageId: 'm-1' };

describe('publisher: what a confirm means', () => {
  it('when the broker acks a message it did not return, then the publish succeeds', () => {
    expect(confirmError(undefined, false, out)).toBeUndefined();
  });

  it('when the broker acks a message it returned, then the publish fails as unroutable', () => {
    const err = confirmError(undefined, true, out);
    expect(err).toBeInstanceOf(UnroutableError);
    expect(err?.message).toBe('message m-1 to ex/domain.created was unroutable');
  });

  it('when the broker nacks the message, then the publish fails as nacked, returned or not', () => {
    expect(confirmError(new Error('nack'), false, out)).toBeInstanceOf(PublishNackedError);
    expect(confirmError(new Error('nack'), true, out)).toBeInstanceOf(PublishNackedError);
  });

  it('when amqplib fails the callback because the channel closed, then the publish fails as channel closed', () => {
    expect(confirmError(new Error('channel closed'), false, out)).toBeInstanceOf(ChannelClosedError);
  });
});
