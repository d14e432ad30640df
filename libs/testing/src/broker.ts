import { connect } from 'amqplib';
import type { EventMessage } from '@platform/contracts';
import { waitFor } from './wait';

/** A message the probe saw: the envelope plus its AMQP routing key, message id and headers. */
export type ProbedMessage = EventMessage & { routingKey: string; messageId?: string; headers: Record<string, unknown> };

export interface BrokerProbe {
  /** Every message received so far, in arrival order. */
  messages: ProbedMessage[];
  /** The first message matching predicate not already returned by next(); waits up to timeoutMs. */
  next(predicate?: (m: ProbedMessage) => boolean, timeoutMs?: number): Promise<ProbedMessage>;
  close(): Promise<void>;
}

/**
 * Binds an exclusive, auto-delete queue to the event exchange so a test can assert what was
 * published. Declares the exchange if needed, with the same arguments as libs/messaging's
 * assertEventExchange (RabbitMQ rejects a re-declaration with different arguments); it cannot
 * import that lib, which imports this one in its tests.
 */
export async function bindProbe(amqpUrl: string, exchange: string, routingKeys: string[] = ['#']): Promise<BrokerProbe> {
  const connection = await connect(amqpUrl);
  connection.on('error', () => undefined);
  try {
    const channel = await connection.createChannel();
    const unrouted = `${exchange}.unrouted`;
    await channel.assertExchange(unrouted, 'fanout', { durable: true });
    await channel.assertExchange(exchange, 'topic', { durable: true, arguments: { 'alternate-exchange': unrouted } });
    const { queue } = await channel.assertQueue('', { exclusive: true, autoDelete: true });
    for (const key of routingKeys) await channel.bindQueue(queue, exchange, key);
    const messages: ProbedMessage[] = [];
    await channel.consume(
      queue,
      (msg) => {
        if (!msg) return;
        let body: unknown;
        try {
          body = JSON.parse(msg.content.toString('utf8'));
        } catch {
          body = { raw: msg.content.toString('utf8') };
        }
        messages.push({
          ...(body as EventMessage),
          routingKey: msg.fields.routingKey,
          messageId: msg.properties.messageId as string | undefined,
          headers: (msg.properties.headers ?? {}) as Record<string, unknown>,
        });
      },
      { noAck: true },
    );
    const taken = new Set<ProbedMessage>();
    return {
      messages,
      async next(predicate = () => true, timeoutMs = 10_000) {
        const found = await waitFor(() => messages.find((m) => !taken.has(m) && predicate(m)), { timeoutMs, what: `a message on ${exchange}` });
        taken.add(found);
        return found;
      },
      async close() {
        await connection.close().catch(() => undefined);
      },
    };
  } catch (err) {
    await connection.close().catch(() => undefined);
    throw err;
  }
}

/** Deletes what a test declared on the broker (its exchanges and queues), so runs leave nothing behind. */
export async function deleteBrokerTopology(amqpUrl: string, what: { exchanges?: string[]; queues?: string[] }): Promise<void> {
  const connection = await connect(amqpUrl);
  connection.on('error', () => undefined);
  try {
    const channel = await connection.createChannel();
    channel.on('error', () => undefined);
    for (const queue of what.queues ?? []) await channel.deleteQueue(queue);
    for (const exchange of what.exchanges ?? []) await channel.deleteExchange(exchange);
  } finally {
    await connection.close().catch(() => undefined);
  }
}
