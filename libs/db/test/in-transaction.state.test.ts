import { AppError } from '@platform/http';
import { createTestDatabase } from '@platform/testing';
import { createDb, inTransaction, sql } from '../src';

describe('inTransaction and the pool under contention', () => {
  let drop: () => Promise<void>;
  let url: string;
  let handle: ReturnType<typeof createDb<unknown>>;
  beforeAll(async () => {
    const database = await createTestDatabase('intransaction');
    ({ drop, url } = database);
    handle = createDb<unknown>({ url, schema: 'public', max: 4 });
    await sql`CREATE TABLE counters (id text PRIMARY KEY, n int NOT NULL)`.execute(handle.db);
    await sql`INSERT INTO counters VALUES ('a', 0), ('b', 0)`.execute(handle.db);
  });
  afterAll(async () => {
    await handle.db.destroy();
    await drop();
  });

  it('when two transactions lock two rows in opposite orders and deadlock, then the one PostgreSQL aborts is rerun and both commit', async () => {
    let holding = 0;
    let bothHold!: () => void;
    const firstLocksTaken = new Promise<void>((resolve) => (bothHold = resolve));
    let runs = 0;
    const bump = (first: string, second: string) =>
      inTransaction(handle.db, async (trx) => {
        runs++;
        await sql`UPDATE counters SET n = n + 1 WHERE id = ${first}`.execute(trx);
        // The first attempts wait for each other here, so each holds the row the other wants next.
        if (++holding === 2) bothHold();
        await firstLocksTaken;
        await sql`UPDATE counters SET n = n + 1 WHERE id = ${second}`.execute(trx);
      });
    await Promise.all([bump('a', 'b'), bump('b', 'a')]);
    expect(runs).toBe(3);
    const { rows } = await sql<{ id: string; n: number }>`SELECT id, n FROM counters ORDER BY id`.execute(handle.db);
    expect(rows).toEqual([
      { id: 'a', n: 2 },
      { id: 'b', n: 2 },
    ]);
  });

  it('when every attempt meets a serialization failure, then it gives up with 503 SERVICE.UNAVAILABLE, not an unknown error (500)', async () => {
    let runs = 0;
    const failing = inTransaction(handle.db, async () => {
      runs++;
      throw Object.assign(new Error('could not serialize access'), { code: '40001' });
    });
    await expect(failing).rejects.toMatchObject({ code: 'SERVICE.UNAVAILABLE' });
    await expect(failing).rejects.toBeInstanceOf(AppError);
    expect(runs).toBe(4);
  });

  it('when the pool is full, then a query waits acquireTimeoutMs for a connection and gives up with 503 SERVICE.UNAVAILABLE', async () => {
    const small = createDb<unknown>({ url, schema: 'public', max: 1, acquireTimeoutMs: 300 });
    let release!: () => void;
    let holding!: () => void;
    const held = new Promise<void>((resolve) => (holding = resolve));
    const holder = inTransaction(small.db, async () => {
      holding();
      await new Promise<void>((resolve) => (release = resolve));
    });
    await held;
    const started = Date.now();
    try {
      await expect(sql`SELECT 1`.execute(small.db)).rejects.toMatchObject({ code: 'SERVICE.UNAVAILABLE' });
      expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    } finally {
      release();
      await holder;
      await small.db.destroy();
    }
  });
});
