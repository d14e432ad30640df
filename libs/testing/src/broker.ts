import { randomUUID } from 'node:crypto';
import { connect } from 'amqplib';
// Moved to libs/messaging (the bench cleans up too); tests keep importing them from here.
export { deleteBrokerTopology, deleteEventTopology } from '@platform/messaging';
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
 * import that lib, which imports this one in its tests. close() leaves nothing of the probe's
 * own (its queue goes with its connection); the exchange belongs to the suite that named it,
 * which deletes it with deleteEventTopology.
 */
export async function bindProbe(
  amqpUrl: string,
  exchange: string,
  routingKeys: string[] = ['#'],
): Promise<BrokerProbe> {
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
        const found = await waitFor(() => messages.find((m) => !taken.has(m) && predicate(m)), {
          timeoutMs,
          what: `a message on ${exchange}`,
        });
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

/**
 * Publishes events onto the exchange the way a service's outbox relay does (confirmed,
 * persistent, routing key = event name), e.g. events no service emits yet; returns their ids.
 */
export async function publishEvents(
  amqpUrl: string,
  exchange: string,
  partnerId: string,
  payloads: EventMessage['payload'][],
): Promise<string[]> {
  const conn = await connect(amqpUrl);
  try {
    const ch = await conn.createConfirmChannel();
    const ids = payloads.map((payload) => {
      const id = randomUUID();
      const message: EventMessage = {
        id,
        partner_id: partnerId,
        occurred_at: new Date().toISOString(),
        source: 'test',
        aggregate_id: randomUUID(),
        version: 1,
        payload,
      };
      ch.publish(exchange, payload.event, Buffer.from(JSON.stringify(message)), {
        persistent: true,
        messageId: id,
        contentType: 'application/json',
      });
      return id;
    });
    await ch.waitForConfirms();
    return ids;
  } finally {
    await conn.close();
  }
}
