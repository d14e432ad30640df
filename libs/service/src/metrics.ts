import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { sql, type Kysely } from '@platform/db';
import type { JobOutcome } from '@platform/jobs';
import { consumerQueueNames, type AmqpConnection } from '@platform/messaging';

/** A service's Prometheus registry, with process metrics and the HTTP metrics every service records. */
export interface ServiceMetrics {
  registry: Registry;
  /** Answers on /portal by operation and status, and how long they took. */
  httpRequests: Counter<'operation' | 'method' | 'status'>;
  httpDuration: Histogram<'operation' | 'method'>;
  /** Job runs by job and outcome (ok, failed, deadline, skipped), and how long they took. */
  jobRuns: Counter<'job' | 'outcome'>;
  jobDuration: Histogram<'job'>;
}

export function createServiceMetrics(service: string): ServiceMetrics {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });
  return {
    registry,
    httpRequests: new Counter({
      name: 'http_requests_total',
      help: 'Answered /portal requests by operation, method and status',
      labelNames: ['operation', 'method', 'status'],
      registers: [registry],
    }),
    httpDuration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time to answer a /portal request, by operation',
      labelNames: ['operation', 'method'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    }),
    jobRuns: new Counter({
      name: 'job_runs_total',
      help: 'Job runs by job and outcome',
      labelNames: ['job', 'outcome'],
      registers: [registry],
    }),
    jobDuration: new Histogram({
      name: 'job_run_duration_seconds',
      help: 'How long a job run took',
      labelNames: ['job'],
      buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 30, 120],
      registers: [registry],
    }),
  };
}

/** Unpublished outbox rows and the age of the oldest, read at scrape time (a growing age means the relay is stuck). */
export function registerOutboxMetrics(metrics: ServiceMetrics, schema: string, db: Kysely<unknown>) {
  let last = { rows: 0, age: 0 };
  const read = async () => {
    const { rows } = await sql<{ n: string; age: number | null }>`
      SELECT count(*)::text AS n, extract(epoch FROM now() - min(created_at))::float8 AS age
      FROM ${sql.id(schema, 'outbox')} WHERE published_at IS NULL`.execute(db);
    last = { rows: Number(rows[0]?.n ?? 0), age: rows[0]?.age ?? 0 };
  };
  new Gauge({
    name: 'outbox_unpublished_events',
    help: 'Events committed to the outbox but not yet published',
    registers: [metrics.registry],
    async collect() {
      await read().catch(() => undefined);
      this.set(last.rows);
    },
  });
  new Gauge({
    name: 'outbox_oldest_unpublished_seconds',
    help: 'Age of the oldest unpublished outbox event',
    registers: [metrics.registry],
    collect() {
      this.set(last.age);
    },
  });
}

/** Messages waiting in each consumer's queue (lag) and parked for an operator, read at scrape time. */
export function registerConsumerMetrics(metrics: ServiceMetrics, amqp: AmqpConnection, queues: string[]) {
  const depth = async (queue: string): Promise<number | undefined> => {
    const ch = await amqp.createConfirmChannel(1_000);
    try {
      return (await ch.checkQueue(queue)).messageCount;
    } catch {
      return undefined;
    } finally {
      await ch.close().catch(() => undefined);
    }
  };
  new Gauge({
    name: 'consumer_queue_messages',
    help: 'Messages waiting in a consumer queue (ready), by queue',
    labelNames: ['queue', 'kind'],
    registers: [metrics.registry],
    async collect() {
      for (const queue of queues) {
        const names = consumerQueueNames(queue, 0);
        for (const [kind, name] of [
          ['work', names.work],
          ['parked', names.parked],
        ] as const) {
          const n = await depth(name).catch(() => undefined);
          if (n !== undefined) this.set({ queue, kind }, n);
        }
      }
    },
  });
}

/** A JobRunner's onRun: each run counted by outcome and timed (job_runs_total, job_run_duration_seconds). */
export const recordJobRun = (metrics: ServiceMetrics) => (job: string, outcome: JobOutcome, seconds: number) => {
  metrics.jobRuns.inc({ job, outcome });
  metrics.jobDuration.observe({ job }, seconds);
};
