import { createTestDatabase } from '@platform/testing';
import { afterCommit, createDb, inTransaction, SharedTransaction, sql, type Kysely } from '../src';

describe('SharedTransaction', () => {
  let drop: () => Promise<void>;
  let db: Kysely<unknown>;
  beforeAll(async () => {
    const database = await createTestDatabase('shared');
    drop = database.drop;
    db = createDb<unknown>({ url: database.url, schema: 'public', max: 4 }).db;
    await sql`CREATE TABLE notes (note text NOT NULL UNIQUE)`.execute(db);
  });
  afterAll(async () => {
    await db.destroy();
    await drop();
  });

  const count = async (note: string) =>
    (await sql<{ n: number }>`SELECT count(*)::int AS n FROM notes WHERE note = ${note}`.execute(db)).rows[0]!.n;
  const insert = (note: string) =>
    inTransaction(db, async (trx) => void (await sql`INSERT INTO notes VALUES (${note})`.execute(trx)));

  it('when two inTransaction calls run inside one, then neither is visible before the shared commit, both after, and afterCommit hooks wait for it', async () => {
    const shared = new SharedTransaction(db);
    const hooked: number[] = [];
    await shared.run(async () => {
      await insert('a1');
      await inTransaction(db, async (trx) => {
        await sql`INSERT INTO notes VALUES ('a2')`.execute(trx);
        await afterCommit(trx, () => void hooked.push(1));
      });
    });
    expect([await count('a1'), await count('a2'), hooked.length]).toEqual([0, 0, 0]);
    await shared.commit();
    expect([await count('a1'), await count('a2'), hooked.length]).toEqual([1, 1, 1]);
  });

  it('when the shared transaction rolls back, then every joined write is undone', async () => {
    const shared = new SharedTransaction(db);
    await shared.run(async () => {
      await insert('b1');
      await insert('b2');
    });
    await shared.rollback();
    expect([await count('b1'), await count('b2')]).toEqual([0, 0]);
  });

  it('when a joined call fails, then only its own writes are undone and the next joined call still runs', async () => {
    await insert('c0');
    const shared = new SharedTransaction(db);
    await shared.run(async () => {
      await insert('c1');
      await expect(
        inTransaction(db, async (trx) => {
          await sql`INSERT INTO notes VALUES ('c2')`.execute(trx);
          await sql`INSERT INTO notes VALUES ('c0')`.execute(trx);
        }),
      ).rejects.toThrow('duplicate key');
      await insert('c3');
    });
    await shared.commit();
    expect([await count('c1'), await count('c2'), await count('c3')]).toEqual([1, 0, 1]);
  });

  it('when the first joined call fails, then its writes are undone and the next joined call still commits with the shared one', async () => {
    const shared = new SharedTransaction(db);
    await shared.run(async () => {
      await expect(
        inTransaction(db, async (trx) => {
          await sql`INSERT INTO notes VALUES ('f0')`.execute(trx);
          await sql`INSERT INTO notes VALUES ('c0')`.execute(trx);
        }),
      ).rejects.toThrow('duplicate key');
      await insert('f1');
    });
    expect(await count('f1')).toBe(0);
    await shared.commit();
    expect([await count('f0'), await count('f1')]).toEqual([0, 1]);
  });

  it('when a joined call opens a transaction inside itself, or work outlives the shared one, then those transactions are their own', async () => {
    const shared = new SharedTransaction(db);
    let late: (() => Promise<void>) | undefined;
    await shared.run(async () => {
      await inTransaction(db, async () => {
        await insert('e1');
      });
      late = () => insert('e2');
    });
    expect(await count('e1')).toBe(1);
    await shared.rollback();
    await shared.run(() => late!());
    expect(await count('e2')).toBe(1);
  });

  it('when nothing joined, then there is no transaction to commit and calls outside run are their own', async () => {
    const shared = new SharedTransaction(db);
    await shared.run(async () => undefined);
    expect(shared.isOpen).toBe(false);
    await shared.commit();
    await insert('d1');
    expect(await count('d1')).toBe(1);
  });
});
