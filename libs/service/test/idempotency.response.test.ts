import { createHash } from 'node:crypto';
import { z } from 'zod';
import { defineRoute, resultOf } from '@platform/contracts';
import { inTransaction, sql, type Kysely } from '@platform/db';
import { AppError, reply } from '@platform/http';
import { startTestService, waitFor, type TestService } from '@platform/testing';
import { IdempotencyKeys, type ServiceDefinition } from '../src';

const thing = z.object({ seq: z.number(), name: z.string() });
const createThing = defineRoute({
  operationId: 'createThing',
  method: 'post',
  path: '/portal/things',
  service: 'billing',
  permission: 'products:read',
  summary: 'Create a thing',
  tag: 'Test',
  body: z.object({ name: z.string() }),
  response: resultOf(thing),
  errors: ['RESOURCE.NOT_FOUND'],
});

/** The test opens these: a create named after one waits for it (before, or inside, its transaction). */
const gates = new Map<string, { before?: Promise<void>; inside?: Promise<void> }>();
const gate = () => {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
};

/** Names refused once with 429 (then served): "not now", as a rate limit says it. */
const busyOnce = new Set<string>();

/**
 * A service whose create writes a row in inTransaction and answers 201; "refused" is a 404 after
 * its write, "broken" a 500 after its write, a name in busyOnce a 429 with Retry-After the first time.
 */
const keyedService = (
  schema: string,
): ServiceDefinition<unknown, Record<string, never>, typeof createThing, undefined> => ({
  name: 'keyed-test',
  schema,
  audience: 'billing',
  listen: { portEnv: 'KEYED_TEST_PORT', hostEnv: 'KEYED_TEST_HOST', defaultPort: 0 },
  migrations: {
    '2026_11_24_0001_things': {
      up: async (db) =>
        void (await sql`CREATE TABLE ${sql.id(schema, 'things')} (seq bigserial PRIMARY KEY, partner text NOT NULL, name text NOT NULL)`.execute(
          db,
        )),
    },
  },
  routes: [createThing],
  handlers: (_ctx, { db }) => ({
    createThing: async ({ body, caller }) => {
      // Only the first request of that name waits.
      const held = gates.get(body.name);
      gates.delete(body.name);
      await held?.before;
      const seq = await inTransaction(db as Kysely<unknown>, async (trx) => {
        const { rows } = await sql<{
          seq: string;
        }>`INSERT INTO things (partner, name) VALUES (${caller.partnerId}, ${body.name}) RETURNING seq`.execute(trx);
        return Number(rows[0]!.seq);
      });
      await held?.inside;
      if (body.name === 'refused') throw new AppError('RESOURCE.NOT_FOUND');
      if (body.name === 'broken') throw new Error('a bug');
      if (busyOnce.delete(body.name)) throw new AppError('RATE.LIMITED', undefined, undefined, { 'Retry-After': '7' });
      return reply(201, { result: { seq, name: body.name } });
    },
  }),
});

describe('Idempotency-Key on a service write (chassis)', () => {
  let t: TestService<unknown, unknown, undefined>;
  let partner: { id: string; token: string };
  let db: Kysely<unknown>;

  beforeAll(async () => {
    t = await startTestService(keyedService('keyed_test'), { IDEMPOTENCY_LOCK_MS: '1500' });
    partner = t.partner();
    db = t.service.runtime.db as Kysely<unknown>;
  });
  afterAll(async () => {
    await t?.close();
  });

  let n = 0;
  const newKey = () => `key-${Date.now()}-${++n}`;
  const post = (body: string, key?: string, token = partner.token) =>
    fetch(`${t.url}/portal/things`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        ...(key === undefined ? {} : { 'idempotency-key': key }),
      },
      body,
    });
  const rowsNamed = async (name: string) =>
    (await sql<{ n: number }>`SELECT count(*)::int AS n FROM things WHERE name = ${name}`.execute(db)).rows[0]!.n;
  /** Waits until the request with this key has claimed it (rows are found by the key's SHA-256). */
  const claimed = (key: string) =>
    waitFor(
      async () =>
        (
          await sql`SELECT 1 FROM idempotency_keys WHERE key = ${createHash('sha256').update(key).digest('hex')}`.execute(
            db,
          )
        ).rows[0],
      { what: 'the claim' },
    );
  const code = async (res: Response) => ((await res.json()) as { error: { code: string } }).error.code;

  it('when a write is retried with the same key and body, then the first answer is replayed byte for byte and the write ran once', async () => {
    const k = newKey();
    const first = await post('{"name":"once"}', k);
    expect([first.status, first.headers.get('idempotent-replayed')]).toEqual([201, null]);
    const firstBody = await first.text();
    const again = await post('{ "name" : "once" }', k);
    expect([again.status, again.headers.get('idempotent-replayed'), again.headers.get('content-type')]).toEqual([
      201,
      'true',
      'application/json; charset=utf-8',
    ]);
    expect(await again.text()).toBe(firstBody);
    expect(await rowsNamed('once')).toBe(1);
  });

  it('when the key comes with another body, then 409 IDEMPOTENCY.KEY_REUSED and nothing runs; another partner with that key runs its own', async () => {
    const k = newKey();
    await post('{"name":"first-body"}', k);
    const other = await post('{"name":"other-body"}', k);
    expect([other.status, await code(other)]).toEqual([409, 'IDEMPOTENCY.KEY_REUSED']);
    expect(await rowsNamed('other-body')).toBe(0);
    const theirs = await post('{"name":"first-body"}', k, t.partner().token);
    expect([theirs.status, theirs.headers.get('idempotent-replayed')]).toEqual([201, null]);
    expect(await rowsNamed('first-body')).toBe(2);
  });

  it('when the first request is still running, then a retry gets 409 IDEMPOTENCY.IN_PROGRESS, and once it ends the replay', async () => {
    const k = newKey();
    const held = gate();
    gates.set('held', { before: held.promise });
    const first = post('{"name":"held"}', k);
    await claimed(k);
    const busy = await waitFor(
      async () => {
        const res = await post('{"name":"held"}', k);
        return res.status === 409 ? res : undefined;
      },
      { what: 'the retry refused while the first runs' },
    );
    expect(await code(busy)).toBe('IDEMPOTENCY.IN_PROGRESS');
    held.open();
    const firstBody = await (await first).text();
    const replay = await post('{"name":"held"}', k);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await replay.text()).toBe(firstBody);
    expect(await rowsNamed('held')).toBe(1);
  });

  it('when the request is refused (4xx) after writing, then its write is undone and the refusal is what a retry gets', async () => {
    const k = newKey();
    const first = await post('{"name":"refused"}', k);
    expect([first.status, await code(first)]).toEqual([404, 'RESOURCE.NOT_FOUND']);
    const again = await post('{"name":"refused"}', k);
    expect([again.status, again.headers.get('idempotent-replayed'), await code(again)]).toEqual([
      404,
      'true',
      'RESOURCE.NOT_FOUND',
    ]);
    expect(await rowsNamed('refused')).toBe(0);
  });

  it('when the request fails with a 5xx, then nothing is kept and a retry runs it again', async () => {
    const k = newKey();
    expect((await post('{"name":"broken"}', k)).status).toBe(500);
    const retry = await post('{"name":"broken"}', k);
    expect([retry.status, retry.headers.get('idempotent-replayed')]).toEqual([500, null]);
    expect(await rowsNamed('broken')).toBe(0);
  });

  it('when the request is refused with 429 (not now), then nothing is kept: the refusal keeps its Retry-After and a retry with the key runs', async () => {
    const k = newKey();
    busyOnce.add('busy');
    const first = await post('{"name":"busy"}', k);
    expect([first.status, first.headers.get('retry-after'), await code(first)]).toEqual([429, '7', 'RATE.LIMITED']);
    const retry = await post('{"name":"busy"}', k);
    expect([retry.status, retry.headers.get('idempotent-replayed')]).toEqual([201, null]);
    const replay = await post('{"name":"busy"}', k);
    expect([replay.status, replay.headers.get('idempotent-replayed')]).toEqual([201, 'true']);
    expect(await rowsNamed('busy')).toBe(1);
  });

  it('when a request outlives its lock and a retry takes the key over, then only one of the two writes commits, with the answer the key replays', async () => {
    const k = newKey();
    const slow = gate();
    gates.set('overtaken', { inside: slow.promise });
    const first = post('{"name":"overtaken"}', k);
    await claimed(k);
    const retry = await waitFor(
      async () => {
        const res = await post('{"name":"overtaken"}', k);
        return res.status === 201 ? res : undefined;
      },
      { timeoutMs: 10_000, what: 'the retry taking the key over once the lock ran out' },
    );
    const retryBody = await retry.text();
    slow.open();
    const overtaken = await first;
    expect([overtaken.status, await code(overtaken)]).toEqual([409, 'IDEMPOTENCY.IN_PROGRESS']);
    expect(await rowsNamed('overtaken')).toBe(1);
    expect(await (await post('{"name":"overtaken"}', k)).text()).toBe(retryBody);
  });

  it('when keys have expired, then pruning removes them and keeps the live ones', async () => {
    const insert = (label: string, count: number, expiresIn: string) =>
      sql`INSERT INTO idempotency_keys (partner_id, key, fingerprint, owner, status, locked_until, expires_at)
          SELECT 'p', ${label} || '-' || n, '\\x00'::bytea, gen_random_uuid(), 201, now(), now() + ${expiresIn}::interval FROM generate_series(1, ${count}) AS n`.execute(
        db,
      );
    await insert('expired', 2_500, '-1 minute');
    await insert('live', 20, '1 day');
    const count = async (label: string) =>
      (
        await sql<{
          n: number;
        }>`SELECT count(*)::int AS n FROM idempotency_keys WHERE key LIKE ${`${label}-%`}`.execute(db)
      ).rows[0]!.n;

    expect(await new IdempotencyKeys(db).pruneExpired()).toBe(2_500);

    expect([await count('expired'), await count('live')]).toEqual([0, 20]);
  });
});
