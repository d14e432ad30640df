import { Client } from 'pg';
import { createTestDatabase, testInfra, uniqueName, waitFor } from '@platform/testing';
import {
  createDb,
  ensureServiceRole,
  migrateToLatest,
  serviceRoleName,
  serviceRoleUrl,
  sql,
  type Kysely,
  type Migration,
} from '../src';

// Roles are cluster-wide, so every schema (hence role) is unique to this run and dropped at the end.
const schemas: string[] = [];
const drops: (() => Promise<void>)[] = [];
const handles: Kysely<unknown>[] = [];
const owner = uniqueName('dbt_owner').toLowerCase();

const itemsTable = (schema: string): Record<string, Migration> => ({
  '001_items': {
    up: async (db) => {
      await sql`CREATE TABLE ${sql.id(schema, 'items')} (id bigserial PRIMARY KEY, note text NOT NULL)`.execute(db);
    },
  },
});

const newSchema = () => {
  const schema = uniqueName('dbt').toLowerCase();
  schemas.push(schema);
  return schema;
};

/** A service's boot: migrates and sets up the role as the URL's user, then connects as the role. */
async function open(url: string, schema: string, migrations = itemsTable(schema)) {
  const admin = createDb<unknown>({ url, schema, max: 1 });
  try {
    await migrateToLatest(admin.db, schema, migrations);
    await ensureServiceRole(admin.db, schema);
  } finally {
    await admin.db.destroy();
  }
  const handle = createDb<unknown>({ url, schema, max: 2, asServiceRole: true });
  handles.push(handle.db);
  return handle;
}

async function newDatabase() {
  const database = await createTestDatabase('dbrole');
  drops.push(database.drop);
  return database.url;
}

const items = (schema: string) => sql.id(schema, 'items');

async function adminQuery(text: string) {
  const client = new Client({ connectionString: (await testInfra()).databaseUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

afterAll(async () => {
  await Promise.all(handles.map((db) => db.destroy()));
  for (const drop of drops) await drop();
  for (const schema of schemas) await adminQuery(`DROP ROLE IF EXISTS "${serviceRoleName(schema)}"`);
  await adminQuery(`DROP ROLE IF EXISTS "${owner}"`);
});

describe('service database roles', () => {
  let url: string;
  let alpha: { schema: string; db: Kysely<unknown> };
  let beta: { schema: string; db: Kysely<unknown> };

  beforeAll(async () => {
    url = await newDatabase();
    const [a, b] = [newSchema(), newSchema()];
    alpha = { schema: a, db: (await open(url, a)).db };
    beta = { schema: b, db: (await open(url, b)).db };
  });

  it('when two services are migrated, then each runtime handle runs as its own role', async () => {
    const { rows } = await sql<{ current_user: string }>`SELECT current_user`.execute(alpha.db);
    expect(rows[0]!.current_user).toBe(`svc_${alpha.schema}`);
  });

  it('when two services are migrated, then each runtime handle reads and writes its own tables', async () => {
    for (const { schema, db } of [alpha, beta]) {
      const { rows } = await sql<{
        id: string;
      }>`INSERT INTO ${items(schema)} (note) VALUES ('mine') RETURNING id`.execute(db);
      await sql`UPDATE ${items(schema)} SET note = 'still mine' WHERE id = ${rows[0]!.id}`.execute(db);
      const read = await sql<{ note: string }>`SELECT note FROM items WHERE id = ${rows[0]!.id}`.execute(db);
      expect(read.rows).toEqual([{ note: 'still mine' }]);
      await sql`DELETE FROM ${items(schema)} WHERE id = ${rows[0]!.id}`.execute(db);
    }
  });

  it("when a runtime handle touches the other service's tables, then PostgreSQL refuses with 42501", async () => {
    for (const [{ db }, other] of [
      [alpha, beta],
      [beta, alpha],
    ] as const) {
      const denied = expect.objectContaining({ code: '42501' });
      await expect(sql`SELECT * FROM ${items(other.schema)}`.execute(db)).rejects.toEqual(denied);
      await expect(sql`INSERT INTO ${items(other.schema)} (note) VALUES ('theirs')`.execute(db)).rejects.toEqual(
        denied,
      );
      await expect(sql`DELETE FROM ${items(other.schema)}`.execute(db)).rejects.toEqual(denied);
    }
  });

  it('when a runtime handle tries DDL in its own schema, then PostgreSQL refuses with 42501', async () => {
    await expect(sql`CREATE TABLE ${sql.id(alpha.schema, 'sneaky')} (id int)`.execute(alpha.db)).rejects.toEqual(
      expect.objectContaining({ code: '42501' }),
    );
  });

  it('when a service migrates again with a new table, then its role can use the new table too', async () => {
    const migrations: Record<string, Migration> = {
      ...itemsTable(alpha.schema),
      '002_more': {
        up: async (db) => {
          await sql`CREATE TABLE ${sql.id(alpha.schema, 'more')} (id serial PRIMARY KEY, n int NOT NULL)`.execute(db);
        },
      },
    };
    const { db } = await open(url, alpha.schema, migrations);
    await sql`INSERT INTO more (n) VALUES (1)`.execute(db);
    const { rows } = await sql<{ n: number }>`SELECT n FROM more`.execute(db);
    expect(rows).toEqual([{ n: 1 }]);
    await expect(sql`SELECT * FROM ${sql.id(alpha.schema, 'more')}`.execute(beta.db)).rejects.toEqual(
      expect.objectContaining({ code: '42501' }),
    );
  });

  it('when a runtime connection LISTENs and another NOTIFYs as the role, then the notification arrives', async () => {
    const listener = new Client({ connectionString: serviceRoleUrl(url, alpha.schema) });
    await listener.connect();
    try {
      const who = await listener.query<{ current_user: string }>('SELECT current_user');
      expect(who.rows[0]!.current_user).toBe(`svc_${alpha.schema}`);
      const received: string[] = [];
      listener.on('notification', (msg) => received.push(msg.payload ?? ''));
      await listener.query('LISTEN dbt_channel');
      await sql`SELECT pg_notify('dbt_channel', 'hello')`.execute(alpha.db);
      await waitFor(() => received.includes('hello'), { what: 'the notification' });
    } finally {
      await listener.end();
    }
  });
});

describe('concurrent boots', () => {
  it('when several processes boot the same service at once, then all succeed and each handle works', async () => {
    const schema = newSchema();
    const [first, second] = [await newDatabase(), await newDatabase()];
    // Fresh databases and a fresh role: schema, migration table and role creation all race.
    const opened = await Promise.all([first, first, first, second, second].map((url) => open(url, schema)));
    for (const { db } of opened) {
      await sql`INSERT INTO ${items(schema)} (note) VALUES ('x')`.execute(db);
    }
    const counts = await Promise.all(
      opened.map(({ db }) => sql<{ n: number }>`SELECT count(*)::int AS n FROM items`.execute(db)),
    );
    expect(counts.map(({ rows }) => rows[0]!.n)).toEqual([3, 3, 3, 2, 2]);
  });

  it('when the migrating user is not a superuser, then it is granted the role and the runtime handle works', async () => {
    const schema = newSchema();
    const dbName = uniqueName('dbrole_owner').toLowerCase();
    await adminQuery(`CREATE ROLE "${owner}" LOGIN CREATEROLE`);
    await adminQuery(`CREATE DATABASE "${dbName}" OWNER "${owner}"`);
    drops.unshift(() => adminQuery(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`));
    const url = new URL((await testInfra()).databaseUrl);
    url.username = owner;
    url.password = '';
    url.pathname = `/${dbName}`;
    const { db } = await open(url.toString(), schema);
    await sql`INSERT INTO items (note) VALUES ('y')`.execute(db);
    const { rows } = await sql<{
      current_user: string;
      n: number;
    }>`SELECT current_user, count(*)::int AS n FROM items GROUP BY 1`.execute(db);
    expect(rows).toEqual([{ current_user: `svc_${schema}`, n: 1 }]);
  });
});
