import { launchPlatform, type ExtraInstance, type Platform } from '@platform/launcher';
import {
  createTestDatabase,
  startRabbitCluster,
  startSmtpServer,
  uniqueName,
  type RabbitCluster,
  type TestSmtpServer,
} from '@platform/testing';
import { Client } from 'pg';
import { LOCAL_SCANS, SHARED_ENV } from '../test/support/shared-platform';

export interface ClusterPlatform {
  cluster: RabbitCluster;
  platform: Platform;
  exchange: string;
  /** The database, as its owner, for assertions on what the services stored. */
  db: Client;
  close(): Promise<void>;
}

const WORKERS = 2;

/**
 * A RabbitMQ cluster of three nodes and the whole platform on it (AMQP_URL lists the three), on a
 * database of its own: webhook-svc and domains-svc as api only, with two webhook delivery workers
 * and two scanners beside them, as a scaled-out deployment runs.
 */
export async function startClusterPlatform(log: (line: string) => void): Promise<ClusterPlatform> {
  const closers: (() => Promise<unknown>)[] = [];
  const close = async () => {
    for (const fn of closers.splice(0).reverse()) await fn().catch((err: Error) => log(`close: ${err.message}`));
  };
  try {
    const cluster = await startRabbitCluster({ log, timeoutMs: 240_000 });
    closers.push(() => cluster.close());
    const database = await createTestDatabase('cluster');
    closers.push(() => database.drop());
    const smtp: TestSmtpServer = await startSmtpServer();
    closers.push(() => smtp.close());
    const exchange = uniqueName('events');
    const platform = await launchPlatform({
      databaseUrl: database.url,
      amqpUrl: cluster.amqpUrl,
      env: {
        LOG_LEVEL: 'warn',
        EVENTS_EXCHANGE: exchange,
        SMTP_URL: smtp.url,
        ...SHARED_ENV,
        ...LOCAL_SCANS,
        // Ten processes share PostgreSQL's 100 connections with whatever else runs on the machine.
        DB_POOL_MAX: '2',
        RECEIPT_WRITERS: '1',
      },
      // Three Erlang VMs and ten Node processes on a small machine: boots take their time.
      readyTimeoutMs: 120_000,
      // domains-svc's api takes every create: a pool of its own size.
      envFor: { 'webhook-svc': { WEBHOOK_ROLE: 'api' }, 'domains-svc': { DOMAINS_ROLE: 'api', DB_POOL_MAX: '8' } },
    });
    closers.push(() => platform.stop());
    const workers: Promise<ExtraInstance>[] = [];
    for (let i = 0; i < WORKERS; i++) {
      workers.push(platform.startInstance('webhook-svc', { WEBHOOK_ROLE: 'worker' }));
      workers.push(platform.startInstance('domains-svc', { DOMAINS_ROLE: 'scanner' }));
    }
    await Promise.all(workers);
    log('platform: gateway and services up, with 2 webhook workers and 2 scanners');
    const db = new Client({ connectionString: database.url });
    await db.connect();
    closers.push(() => db.end());
    return { cluster, platform, exchange, db, close };
  } catch (err) {
    await close();
    throw err;
  }
}
