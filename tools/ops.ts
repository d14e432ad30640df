// Operator commands for the message bus: `npm run ops -- parked list|replay --queue <queue> [--limit n] [--json]`.
// A consumer parks a message it cannot handle (invalid payload, or every retry failed) in
// `<queue>.parked`; list shows why, replay moves them back to the queue once the cause is fixed.
import { parseArgs } from 'node:util';
import { connectAmqp, listParked, replayParked } from '@platform/messaging';
import { createLogger } from '@platform/observability';

const USAGE = `Usage: npm run ops -- <command> --queue <queue> [--limit n] [--json]

  parked list     the first messages parked for a consumer queue (default 50), with the reason
  parked replay   moves parked messages back to the consumer's queue (all, or --limit n)

Reads AMQP_URL (default amqp://guest:guest@127.0.0.1:5672). Exit codes: 0 done, 1 failure, 2 bad arguments.`;

async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, options: { queue: { type: 'string' }, limit: { type: 'string' }, json: { type: 'boolean' } } });
  } catch (err) {
    console.error(`${(err as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const { positionals, values } = parsed;
  const command = positionals.join(' ');
  const limit = values.limit === undefined ? undefined : Number(values.limit);
  if (!['parked list', 'parked replay'].includes(command) || !values.queue || (limit !== undefined && !(Number.isInteger(limit) && limit > 0))) {
    console.error(USAGE);
    return 2;
  }
  const logger = createLogger('ops', 'warn');
  const amqp = await connectAmqp(process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672', logger);
  try {
    await amqp.ready(5_000);
    if (command === 'parked list') {
      const result = await listParked({ amqp, queue: values.queue, limit });
      if (values.json) console.log(JSON.stringify(result));
      else {
        console.log(`${result.total} parked in ${values.queue}.parked`);
        for (const m of result.messages) console.log(`  ${m.messageId ?? '?'}  ${m.event ?? '?'}  ${m.reason ?? ''}${m.attempts ? ` after ${m.attempts} attempts` : ''}  ${m.lastError ?? ''}`);
      }
    } else {
      const moved = await replayParked({ amqp, queue: values.queue, logger, limit });
      console.log(values.json ? JSON.stringify({ replayed: moved }) : `${moved} message(s) moved back to ${values.queue}`);
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
