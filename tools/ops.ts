// Operator commands: `npm run ops -- parked list|replay --queue <queue> [--limit n] [--json]`, `npm run ops -- webhooks stats [--json]`.
// A consumer parks a message it cannot handle (invalid payload, or every retry failed) in
// `<queue>.parked`; list shows why, replay moves them back to the queue once the cause is fixed.
import { parseArgs } from 'node:util';
import { Client } from 'pg';
import { connectAmqp, listParked, replayParked } from '@platform/messaging';
import { createLogger } from '@platform/observability';

const USAGE = `Usage: npm run ops -- <command> [--queue <queue>] [--limit n] [--json]

  parked list     the first messages parked for a consumer queue (default 50), with the reason
  parked replay   moves parked messages back to the consumer's queue (all, or --limit n)
  webhooks stats  webhook fan-out queue depth, attempts per second (last minute), and per endpoint
                  (busiest first, --limit n, default 20) deliveries due now, waiting and failed

Reads AMQP_URL (default amqp://guest:guest@127.0.0.1:5672), and for webhooks DATABASE_URL and
EVENTS_EXCHANGE. Exit codes: 0 done, 1 failure, 2 bad arguments.`;

/** What an operator scaling webhook workers looks at: backlog on the bus, due work, failures, throughput. */
async function webhookStats(limit: number) {
  const exchange = process.env.EVENTS_EXCHANGE ?? 'partner.events';
  const queue = `${exchange}.webhook-svc`;
  // AMQP_URL may list a cluster's nodes: connectAmqp dials the next while one does not answer.
  const amqp = await connectAmqp(
    process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672',
    // A missing queue closes the channel; the depth then shows as unknown, not as a log line.
    createLogger('ops', 'error'),
  );
  let queueDepth: number | null = null;
  try {
    await amqp.ready(5_000);
    const ch = await amqp.createConfirmChannel();
    ch.on('error', () => undefined);
    queueDepth = await ch.checkQueue(queue).then(
      (q) => q.messageCount,
      () => null,
    );
  } finally {
    await amqp.close().catch(() => undefined);
  }
  const db = new Client({
    connectionString: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  });
  await db.connect();
  try {
    const totals = await db.query(`
      SELECT (SELECT count(*) FROM webhooks.attempts WHERE attempted_at > now() - interval '60 seconds')::float / 60 AS attempts_per_second,
             (SELECT count(*) FROM webhooks.deliveries WHERE status = 'pending' AND next_attempt_at <= now())::int AS due,
             (SELECT count(*) FROM webhooks.deliveries WHERE status = 'failed')::int AS failed`);
    const endpoints = await db.query(
      `SELECT e.id, e.partner_id, e.url, e.enabled,
              count(d.id) FILTER (WHERE d.status = 'pending' AND d.next_attempt_at <= now())::int AS due,
              count(d.id) FILTER (WHERE d.status = 'pending' AND d.next_attempt_at > now())::int AS waiting,
              count(d.id) FILTER (WHERE d.status = 'failed')::int AS failed
       FROM webhooks.endpoints e LEFT JOIN webhooks.deliveries d ON d.endpoint_id = e.id
       GROUP BY e.id ORDER BY 5 DESC, 7 DESC, 6 DESC LIMIT $1`,
      [limit],
    );
    return { queue, queue_depth: queueDepth, ...totals.rows[0], endpoints: endpoints.rows };
  } finally {
    await db.end();
  }
}

async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { queue: { type: 'string' }, limit: { type: 'string' }, json: { type: 'boolean' } },
    });
  } catch (err) {
    console.error(`${(err as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const { positionals, values } = parsed;
  const command = positionals.join(' ');
  const limit = values.limit === undefined ? undefined : Number(values.limit);
  if (
    !['parked list', 'parked replay', 'webhooks stats'].includes(command) ||
    (!values.queue && command !== 'webhooks stats') ||
    (limit !== undefined && !(Number.isInteger(limit) && limit > 0))
  ) {
    console.error(USAGE);
    return 2;
  }
  if (command === 'webhooks stats') {
    const stats = await webhookStats(limit ?? 20);
    if (values.json) console.log(JSON.stringify(stats));
    else {
      console.log(
        `queue ${stats.queue}: ${stats.queue_depth === null ? 'not declared yet' : `${stats.queue_depth} message(s)`}; ${stats.due} due now, ${stats.failed} failed; ${Number(stats.attempts_per_second).toFixed(1)} attempts/s (last minute)`,
      );
      for (const e of stats.endpoints)
        console.log(
          `  ${e.id}  ${e.enabled ? 'enabled ' : 'disabled'}  due ${e.due}  waiting ${e.waiting}  failed ${e.failed}  ${e.url}`,
        );
    }
    return 0;
  }
  const queue = values.queue!;
  const logger = createLogger('ops', 'warn');
  const amqp = await connectAmqp(process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672', logger);
  try {
    await amqp.ready(5_000);
    if (command === 'parked list') {
      const result = await listParked({ amqp, queue, limit });
      if (values.json) console.log(JSON.stringify(result));
      else {
        console.log(`${result.total} parked in ${values.queue}.parked`);
        for (const m of result.messages)
          console.log(
            `  ${m.messageId ?? '?'}  ${m.event ?? '?'}  ${m.reason ?? ''}${m.attempts ? ` after ${m.attempts} attempts` : ''}  ${m.lastError ?? ''}`,
          );
      }
    } else {
      const moved = await replayParked({ amqp, queue, logger, limit });
      console.log(
        values.json ? JSON.stringify({ replayed: moved }) : `${moved} message(s) moved back to ${values.queue}`,
      );
    }
    return 0;
  } finally {
    await amqp.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    console.error(`error: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = 1;
  },
);
