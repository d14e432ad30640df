import net from 'node:net';
import { connect } from 'amqplib';
import { createDb, migrateToLatest, sql, type Kysely } from '@platform/db';
import { createLogger } from '@platform/observability';
import { createTestDatabase, deleteEventTopology, testInfra, uniqueName } from '@platform/testing';
import type { Pool } from 'pg';
import {
  aggregateVersionsMigration,
  consumerMigration,
  consumerQueueNames,
  outboxMigration,
  outboxTraceparentMigration,
  projectionVersionsMigration,
  startOutboxRelay,
  writeOutbox,
  type AmqpConnection,
  type OutboxEvent,
} from '../src';

export const logger = createLogger('messaging-test', process.env.LOG_LEVEL ?? 'silent');
export const SCHEMA = 'svc';

export interface Suite {
  db: Kysely<unknown>;
  pool: Pool;
  url: string;
  amqpUrl: string;
  exchange: string;
  /** A new consumer queue name; its work, retry and parked queues are deleted with the suite. */
  consumerQueue(prefix: string, retrySteps: number): string;
  /** Drops the database and deletes the exchange, its unrouted exchange and queue, and every consumerQueue. */
  close(): Promise<void>;
}

/** A fresh database with the outbox, processed_messages and an effects table; a unique exchange. */
export async function setupSuite(prefix: string): Promise<Suite> {
  const { amqpUrl } = await testInfra();
  const database = await createTestDatabase(prefix);
  const { db, pool } = createDb<unknown>({ url: database.url, schema: SCHEMA });
  await migrateToLatest(db, SCHEMA, {
    '001_outbox': outboxMigration(SCHEMA),
    '002_processed': consumerMigration(SCHEMA),
    '003_effects': {
      up: async (d) => {
        await sql`CREATE TABLE svc.effects (message_id text NOT NULL, note text NOT NULL)`.execute(d);
      },
    },
    '004_aggregate_versions': aggregateVersionsMigration(SCHEMA),
    '005_projection_versions': projectionVersionsMigration(SCHEMA),
    '006_outbox_traceparent': outboxTraceparentMigration(SCHEMA),
  });
  const exchange = uniqueName('ex');
  const queues: string[] = [];
  return {
    db,
    pool,
    url: database.url,
    amqpUrl,
    exchange,
    consumerQueue(prefix, retrySteps) {
      const queue = uniqueName(prefix);
      queues.push(...consumerQueues(queue, retrySteps));
      return queue;
    },
    async close() {
      try {
        await db.destroy();
        await database.drop();
      } finally {
        await deleteEventTopology(amqpUrl, exchange, queues);
      }
    },
  };
}

export function event(name = 'domain.created', params: Record<string, unknown> = {}): OutboxEvent {
  return {
    partnerId: 'partner-1',
    aggregateId: uniqueName('aggregate'),
    payload: { event: name, params },
    requestId: uniqueName('req'),
  };
}

/** Writes events in one committed transaction, as a service would. */
export async function commitEvents(db: Kysely<unknown>, events: OutboxEvent[]) {
  return db.transaction().execute((trx) => writeOutbox(trx, SCHEMA, 'test-svc', events));
}

export async function pendingIds(db: Kysely<unknown>): Promise<string[]> {
  const { rows } = await sql<{
    id: string;
  }>`SELECT id FROM svc.outbox WHERE published_at IS NULL ORDER BY created_at`.execute(db);
  return rows.map((r) => r.id);
}

function consumerQueues(queue: string, retrySteps: number): string[] {
  const names = consumerQueueNames(queue, retrySteps);
  return [names.work, names.parked, ...names.retry];
}

/** A port nothing listens on. */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

/**
 * A TCP proxy in front of RabbitMQ, so a test can take "the network" away from one client
 * without touching the shared broker: `down()` drops every connection and refuses new ones,
 * `blackhole()` keeps connections open but swallows what the client sends.
 */
export async function startBrokerProxy(amqpUrl: string) {
  const target = new URL(amqpUrl);
  const sockets = new Set<net.Socket>();
  let mode: 'up' | 'down' | 'blackhole' = 'up';
  /** While set, what the broker sends (confirms included) waits here. */
  let held: { socket: net.Socket; data: Buffer }[] | undefined;
  const server = net.createServer((client) => {
    if (mode === 'down') return void client.destroy();
    const upstream = net.connect(Number(target.port || 5672), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => {
        sockets.delete(s);
        client.destroy();
        upstream.destroy();
      });
    }
    client.on('data', (d) => {
      if (mode === 'up') upstream.write(d);
    });
    upstream.on('data', (d) => (held ? held.push({ socket: client, data: d }) : client.write(d)));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = new URL(amqpUrl);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as net.AddressInfo).port);
  return {
    url: url.toString(),
    down() {
      mode = 'down';
      for (const s of sockets) s.destroy();
    },
    blackhole() {
      mode = 'blackhole';
    },
    up() {
      mode = 'up';
    },
    /** Holds the broker's replies (e.g. publisher confirms) until releaseReplies(). */
    holdReplies() {
      held ??= [];
    },
    releaseReplies() {
      const waiting = held ?? [];
      held = undefined;
      for (const { socket, data } of waiting) socket.write(data);
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

export interface QueuedMessage {
  content: string;
  messageId?: string;
  headers: Record<string, unknown>;
}

/** Takes every message currently in a queue (acking them), for asserting parked/unrouted queues. */
export async function takeMessages(amqpUrl: string, queue: string): Promise<QueuedMessage[]> {
  const conn = await connect(amqpUrl);
  conn.on('error', () => undefined);
  try {
    const ch = await conn.createChannel();
    const out: QueuedMessage[] = [];
    for (;;) {
      const msg = await ch.get(queue);
      if (!msg) return out;
      out.push({
        content: msg.content.toString('utf8'),
        messageId: msg.properties.messageId as string | undefined,
        headers: msg.properties.headers ?? {},
      });
      ch.ack(msg);
    }
  } finally {
    await conn.close().catch(() => undefined);
  }
}

/**
 * The suite's outbox relay on `amqp` with a long poll interval (tests are woken by commits in this
 * process or by LISTEN/NOTIFY, not by the poll) unless `extra` says otherwise; the caller stops it.
 */
export const suiteRelay = (
  suite: Suite,
  amqp: AmqpConnection,
  extra: Partial<Parameters<typeof startOutboxRelay>[0]> = {},
) =>
  startOutboxRelay({
    pool: suite.pool,
    schema: SCHEMA,
    amqp,
    exchange: suite.exchange,
    logger,
    pollIntervalMs: 60_000,
    ...extra,
  });
