import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

export interface TestInfra {
  /** Admin URL of a PostgreSQL server (trust or password auth). */
  databaseUrl: string;
  amqpUrl: string;
}

let infra: Promise<TestInfra> | undefined;

/**
 * PostgreSQL and RabbitMQ for tests: DATABASE_URL / AMQP_URL when set (CI and dev machines),
 * otherwise containers started once per test process with testcontainers.
 */
export function testInfra(): Promise<TestInfra> {
  infra ??= (async () => {
    try {
      const databaseUrl = process.env.DATABASE_URL ?? (await startPostgres());
      const amqpUrl = process.env.AMQP_URL ?? (await startRabbit());
      return { databaseUrl, amqpUrl };
    } catch (err) {
      throw new Error(
        `Tests need PostgreSQL and RabbitMQ: set DATABASE_URL and AMQP_URL (see README), or run Docker for testcontainers. (${(err as Error).message})`,
      );
    }
  })();
  return infra;
}

async function startPostgres(): Promise<string> {
  const { PostgreSqlContainer } = await import('@testcontainers/postgresql');
  const container = await new PostgreSqlContainer('postgres:16-alpine').start();
  return container.getConnectionUri();
}

async function startRabbit(): Promise<string> {
  const { RabbitMQContainer } = await import('@testcontainers/rabbitmq');
  const container = await new RabbitMQContainer('rabbitmq:3.13-alpine').start();
  return container.getAmqpUrl();
}

export const uniqueName = (prefix: string) => `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;

/** A fresh database for one test suite; returns its URL and a drop function. */
export async function createTestDatabase(prefix = 'test'): Promise<{ url: string; drop: () => Promise<void> }> {
  const { databaseUrl } = await testInfra();
  const name = uniqueName(prefix).toLowerCase();
  const admin = new Client({ connectionString: databaseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(databaseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new Client({ connectionString: databaseUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
    },
  };
}
