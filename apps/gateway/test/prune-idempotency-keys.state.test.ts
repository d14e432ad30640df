import { createDb, sql, type Kysely } from '@platform/db';
import { JobRunner } from '@platform/jobs';
import { createLogger } from '@platform/observability';
import { GATEWAY_SCHEMA, type GatewayDb } from '../src/db/tables';
import { pruneIdempotencyKeysJob } from '../src/jobs/prune-idempotency-keys.job';
import { startGateway, startSuite, type Suite } from './support/harness';

describe('pruning Idempotency-Keys', () => {
  let suite: Suite;
  let db: Kysely<GatewayDb>;
  let partnerId: string;

  beforeAll(async () => {
    suite = await startSuite();
    db = createDb<GatewayDb>({ url: suite.databaseUrl, schema: GATEWAY_SCHEMA, max: 3 }).db;
    partnerId = await suite.partner();
  });
  afterAll(async () => {
    await db?.destroy();
    await suite?.close();
  });

  /** `count` keys named `<label>-<n>` that expire `expiresIn` from now (negative: already expired). */
  const insertKeys = (label: string, count: number, expiresIn: string) =>
    sql`
      INSERT INTO idempotency_keys (partner_id, key, fingerprint, owner, status, locked_until, expires_at)
      SELECT ${partnerId}, ${label} || '-' || n, '\\x00'::bytea, gen_random_uuid(), 201, now(), now() + ${expiresIn}::interval
      FROM generate_series(1, ${count}) AS n`.execute(db);
  const countKeys = async (label: string) => {
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM idempotency_keys WHERE key LIKE ${`${label}-%`}`.execute(db);
    return rows[0].n;
  };

  it('when more keys have expired than one batch deletes, then one run of the job removes them all and keeps the live ones', async () => {
    await insertKeys('expired', 2_500, '-1 minute');
    await insertKeys('live', 20, '1 day');
    const runner = new JobRunner<GatewayDb>({ db, logger: createLogger('prune-test', 'silent'), random: () => 0 }).every(pruneIdempotencyKeysJob);

    await runner.tick();

    expect(await countKeys('expired')).toBe(0);
    expect(await countKeys('live')).toBe(20);
    await runner.stop();
  });

  it('when the gateway closes, then its job runner is stopped with it', async () => {
    const gateway = await startGateway(suite.env);
    expect(gateway.deps.jobs.names).toEqual(['prune-idempotency-keys']);
    const stop = jest.spyOn(gateway.deps.jobs, 'stop');

    await gateway.close();

    expect(stop).toHaveBeenCalledTimes(1);
  });
});
