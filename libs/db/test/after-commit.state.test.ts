import { Kysely, PostgresDialect } from 'kysely';
import { createTestDatabase } from '@platform/testing';
import { afterCommit, createDb, inTransaction, sql } from '../src';

describe('afterCommit', () => {
  let drop: () => Promise<void>;
  let handle: ReturnType<typeof createDb<unknown>>;
  let plain: Kysely<unknown>;
  beforeAll(async () => {
    const database = await createTestDatabase('aftercommit');
    drop = database.drop;
    handle = createDb<unknown>({ url: database.url, schema: 'public', max: 3 });
    plain = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: handle.pool }) });
    await sql`CREATE TABLE notes (note text NOT NULL)`.execute(handle.db);
  });
  afterAll(async () => {
    await handle.db.destroy();
    await drop();
  });

  /** What another connection sees when the hook runs. */
  const seenElsewhere = async (note: string) => {
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM notes WHERE note = ${note}`.execute(plain);
    return rows[0].n;
  };

  it('when the transaction commits, then the hook runs after the commit, once its rows are visible to other connections', async () => {
    const seen: number[] = [];
    let hookRan: Promise<void> | undefined;
    await handle.db.transaction().execute(async (trx) => {
      await sql`INSERT INTO notes VALUES ('committed')`.execute(trx);
      const promised = await afterCommit(trx, () => {
        hookRan = seenElsewhere('committed').then((n) => void seen.push(n));
      });
      expect(promised).toBe(true);
      expect(hookRan).toBeUndefined();
    });
    await hookRan;
    expect(seen).toEqual([1]);
  });

  it('when inTransaction commits, then it returns once its hooks, asynchronous ones too, have finished', async () => {
    const done: string[] = [];
    await inTransaction(handle.db, async (trx) => {
      await sql`INSERT INTO notes VALUES ('awaited')`.execute(trx);
      await afterCommit(trx, async () => {
        done.push(`seen ${await seenElsewhere('awaited')}`);
      });
    });
    expect(done).toEqual(['seen 1']);
  });

  it('when the transaction rolls back, then the hook never runs, not even at the connection’s next commit', async () => {
    let runs = 0;
    await expect(
      handle.db.transaction().execute(async (trx) => {
        await afterCommit(trx, () => void runs++);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    // The pool has few connections: later transactions reuse the rolled-back one.
    for (let i = 0; i < 6; i++)
      await handle.db.transaction().execute(async (trx) => void (await sql`SELECT 1`.execute(trx)));
    expect(runs).toBe(0);
  });

  it('when given no transaction, or one of a Kysely not made by createDb, then it promises nothing and the hook never runs', async () => {
    let runs = 0;
    expect(await afterCommit(handle.db, () => void runs++)).toBe(false);
    await plain.transaction().execute(async (trx) => {
      expect(await afterCommit(trx, () => void runs++)).toBe(false);
    });
    expect(runs).toBe(0);
  });
});
