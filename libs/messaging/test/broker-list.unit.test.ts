import { brokerUrls, connectObject, rotatingAddress } from '../src/broker-list';

describe('broker list (AMQP_URL naming several nodes)', () => {
  it('when AMQP_URL lists nodes separated by commas, then each is one URL, blanks ignored', () => {
    expect(brokerUrls(' amqp://a:5672 ,amqp://b:5673,, ')).toEqual(['amqp://a:5672', 'amqp://b:5673']);
    expect(() => brokerUrls(' , ')).toThrow('AMQP_URL names no broker');
  });

  it('when a URL carries credentials, a vhost and tuning, then the connect object has what amqplib reads from the string', () => {
    expect(connectObject('amqps://us%40er:p%3Ass@[::1]:5671/v%2Fh?heartbeat=10&frameMax=8192')).toEqual({
      protocol: 'amqps',
      hostname: '::1',
      port: 5671,
      username: 'us@er',
      password: 'p:ss',
      vhost: 'v%2Fh',
      heartbeat: 10,
      frameMax: 8192,
      channelMax: undefined,
      locale: undefined,
    });
    expect(connectObject('amqp://127.0.0.1')).toMatchObject({
      username: undefined,
      password: undefined,
      port: undefined,
    });
    expect(() => connectObject('http://127.0.0.1')).toThrow('not an AMQP URL');
  });

  it('when an attempt fails, then next() points the same object at the following node, round robin', () => {
    const nodes = rotatingAddress('amqp://u:p@127.0.0.1:5701,amqp://127.0.0.1:5702/vh');
    const { address } = nodes;
    expect(address).toMatchObject({ port: 5701, username: 'u' });
    nodes.next();
    expect(nodes.address).toBe(address);
    expect(address).toMatchObject({ port: 5702, vhost: 'vh' });
    expect(address.username).toBeUndefined();
    expect(nodes.current()).toBe('amqp://127.0.0.1:5702/vh');
    nodes.next();
    expect(address).toMatchObject({ port: 5701, username: 'u' });
  });
});
