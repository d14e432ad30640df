import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { connect, type Channel, type ChannelModel } from 'amqplib';
import { assertConsumerTopology, consumerQueueNames } from '@platform/messaging';
import { testInfra, uniqueName } from '@platform/testing';

const run = promisify(execFile);
const OPS = path.resolve(__dirname, '../../dist/tools/ops.js');

describe('npm run ops -- parked', () => {
  let conn: ChannelModel;
  let ch: Channel;
  let amqpUrl: string;
  const exchange = uniqueName('ops_ex');
  const queue = uniqueName('ops_q');
  const names = consumerQueueNames(queue, 1);

  beforeAll(async () => {
    amqpUrl = (await testInfra()).amqpUrl;
    conn = await connect(amqpUrl);
    ch = await conn.createChannel();
    await assertConsumerTopology(ch, { exchange, queue, bindings: ['x.y'], retryDelaysMs: [1000], deliveryLimit: 5 });
  });
  afterAll(async () => {
    for (const q of [names.work, names.parked, ...names.retry, `${exchange}.unrouted`])
      await ch.deleteQueue(q).catch(() => undefined);
    for (const e of [exchange, `${exchange}.unrouted`]) await ch.deleteExchange(e).catch(() => undefined);
    await conn.close();
  });

  const ops = async (...args: string[]) =>
    JSON.parse(
      (await run(process.execPath, [OPS, ...args, '--json'], { env: { ...process.env, AMQP_URL: amqpUrl } })).stdout,
    );

  it('when a message is parked, then list shows it with its reason and leaves it there, and replay moves it back to the queue', async () => {
    const body = JSON.stringify({ payload: { event: 'domain.changed' } });
    ch.sendToQueue(names.parked, Buffer.from(body), {
      messageId: 'm-1',
      headers: { 'x-parked-reason': 'attempts exhausted', 'x-attempt': 4, 'x-last-error': 'boom' },
    });
    await ch.checkQueue(names.parked);

    const listed = await ops('parked', 'list', '--queue', queue);
    expect(listed).toEqual({
      total: 1,
      messages: [
        { messageId: 'm-1', event: 'domain.changed', reason: 'attempts exhausted', attempts: 4, lastError: 'boom' },
      ],
    });
    expect((await ch.checkQueue(names.parked)).messageCount).toBe(1);

    expect(await ops('parked', 'replay', '--queue', queue)).toEqual({ replayed: 1 });
    expect((await ch.checkQueue(names.parked)).messageCount).toBe(0);
    const back = await ch.get(names.work);
    expect(back && [back.properties.messageId, back.properties.headers?.['x-parked-reason']]).toEqual([
      'm-1',
      undefined,
    ]);
  });

  it('when arguments are wrong, then it exits 2 with the usage', async () => {
    await expect(run(process.execPath, [OPS, 'parked', 'list'])).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('Usage'),
    });
  });
});
