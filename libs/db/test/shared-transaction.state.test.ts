import { createTestDatabase } from '@platform/testing';
import {
  afterCommit,
  createDb,
  inTransaction,
  outsideSharedTransaction,
  SharedTransaction,
  sql,
  type Kysely,
} from '../src';

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

  it('when a joined call runs inTransaction inside itself, then that joins too; work that outlives the shared one has transactions of its own', async () => {
    const shared = new SharedTransaction(db);
    let late: (() => Promise<void>) | undefined;
    await shared.run(async () => {
      await inTransaction(db, async () => {
        await insert('e1');
      });
      late = () => insert('e2');
    });
    expect(await count('e1')).toBe(0);
    await shared.rollback();
    expect(await count('e1')).toBe(0);
    await shared.run(() => late!());
    expect(await count('e2')).toBe(1);
  });

  it('when plain queries on the handle run inside it, then they write and read in it, and commit or roll back with it', async () => {
    const plain = (note: string) => sql`INSERT INTO notes VALUES (${note})`.execute(db);
    const kept = new SharedTransaction(db);
    const seen = await kept.run(async () => {
      await plain('p1');
      await insert('p2');
      return count('p2');
    });
    expect([seen, await count('p1')]).toEqual([1, 0]);
    await kept.commit();
    expect([await count('p1'), await count('p2')]).toEqual([1, 1]);

    const undone = new SharedTransaction(db);
    await undone.run(() => plain('p3'));
    await undone.rollback();
    expect(await count('p3')).toBe(0);
  });

  it('when a plain query fails after earlier work, then only it is undone and the request carries on', async () => {
    await insert('q0');
    const shared = new SharedTransaction(db);
    await shared.run(async () => {
      await insert('q1');
      await expect(sql`INSERT INTO notes VALUES ('q0')`.execute(db)).rejects.toThrow('duplicate key');
      await sql`INSERT INTO notes VALUES ('q2')`.execute(db);
    });
    await shared.commit();
    expect([await count('q1'), await count('q2')]).toEqual([1, 1]);
  });

  it('when hooks are registered inside it, then they wait for its commit (not the joined call), and those of a call that failed never run', async () => {
    const ran: string[] = [];
    const shared = new SharedTransaction(db);
    await shared.run(async () => {
      await inTransaction(db, async (trx) => void (await afterCommit(trx, () => void ran.push('joined'))));
      expect(await afterCommit(db, () => void ran.push('handle'))).toBe(true);
      await expect(
        inTransaction(db, async (trx) => {
          await afterCommit(trx, () => void ran.push('failed'));
          throw new Error('refused');
        }),
      ).rejects.toThrow('refused');
    });
    expect(ran).toEqual([]);
    await shared.commit();
    expect(ran.sort()).toEqual(['handle', 'joined']);

    const rolledBack = new SharedTransaction(db);
    await rolledBack.run(() => afterCommit(db, () => void ran.push('rolled back')));
    await rolledBack.rollback();
    expect(ran).not.toContain('rolled back');
  });

  it('when its COMMIT fails, then no hook runs', async () => {
    await sql`CREATE TABLE IF NOT EXISTS checked (n int)`.execute(db);
    await sql`CREATE OR REPLACE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused at commit'; END $$`.execute(
      db,
    );
    await sql`CREATE CONSTRAINT TRIGGER refuse AFTER INSERT ON checked DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION refuse()`.execute(
      db,
    );
    let runs = 0;
    const shared = new SharedTransaction(db);
    await shared.run(() =>
      inTransaction(db, async (trx) => {
        await sql`INSERT INTO checked VALUES (1)`.execute(trx);
        await afterCommit(trx, () => void runs++);
      }),
    );
    await expect(shared.commit()).rejects.toThrow('refused at commit');
    await expect(
      inTransaction(db, async (trx) => {
        await sql`INSERT INTO checked VALUES (2)`.execute(trx);
        await afterCommit(trx, () => void runs++);
      }),
    ).rejects.toThrow('refused at commit');
    expect(runs).toBe(0);
  });

  it('when work inside it runs outsideSharedTransaction (a group commit serving many requests), then that work commits on its own', async () => {
    const shared = new SharedTransaction(db);
    await shared.run(async () => {
      await insert('o1');
      await outsideSharedTransaction(() => insert('o2'));
    });
    await shared.rollback();
    expect([await count('o1'), await count('o2')]).toEqual([0, 1]);
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
