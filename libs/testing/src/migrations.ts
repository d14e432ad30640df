import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { createDb, sql, type Kysely } from '@platform/db';
import {
  chassisMigrations,
  migrateSchema,
  migrateService,
  schemaMigrations,
  type ServiceMigration,
} from '@platform/service';
import { createTestDatabase } from './infra';

type Definition = Parameters<typeof migrateService>[0];

/**
 * What must survive a migration: every table's columns, indexes and row count (the migration
 * tables aside); given `tables`, only theirs (a table a new migration adds is not compared).
 */
async function shape(client: Client, schema: string, tables?: string[]) {
  const { rows: columns } = await client.query(
    `SELECT table_name, column_name, data_type, is_nullable, column_default FROM information_schema.columns
      WHERE table_schema = $1 AND table_name NOT LIKE '%migration%' AND ($2::text[] IS NULL OR table_name = ANY($2)) ORDER BY 1, 2`,
    [schema, tables ?? null],
  );
  const { rows: indexes } = await client.query(
    `SELECT indexdef FROM pg_indexes WHERE schemaname = $1 AND tablename NOT LIKE '%migration%' AND ($2::text[] IS NULL OR tablename = ANY($2)) ORDER BY 1`,
    [schema, tables ?? null],
  );
  const counts: Record<string, number> = {};
  for (const table of new Set(columns.map((c: { table_name: string }) => c.table_name))) {
    counts[table] = (
      await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${schema}"."${table}"`)
    ).rows[0]!.n;
  }
  return { columns, indexes, counts };
}

const recorded = async (client: Client, schema: string, table: string) =>
  (await client.query<{ name: string }>(`SELECT name FROM "${schema}"."${table}" ORDER BY 1`)).rows.map((r) => r.name);

/** A migration creating one table: it ran if the table is there. */
const creating = (schema: string, table: string): ServiceMigration => ({
  up: async (db: Kysely<unknown>) => {
    await sql`CREATE TABLE ${sql.id(schema, table)} (id int)`.execute(db);
  },
});

/**
 * Restores the database the previous release built (fixtures/previous-release.sql), migrates the
 * service's schema with today's code, then as a later release would: a new chassis migration and
 * a service migration dated before the service's latest one. Expects today's migrations to keep
 * every row, both later ones to run, every record to be where today's code reads it, and every
 * table, index and row to be as today's migrations left them.
 */
export async function expectUpgradesPreviousRelease(definition: Definition): Promise<void> {
  const database = await createTestDatabase('previous');
  const client = new Client({ connectionString: database.url });
  await client.connect();
  const admin = createDb<unknown>({ url: database.url, schema: definition.schema, max: 1 });
  try {
    await client.query(readFileSync(join(__dirname, '../fixtures/previous-release.sql'), 'utf8'));
    const previous = await shape(client, definition.schema);
    await migrateService(definition, database.url);
    // Today's migrations may change the shape (new columns, tables), never lose a row of the previous release.
    const before = await shape(client, definition.schema);
    for (const [table, rows] of Object.entries(previous.counts))
      expect({ table, rows: before.counts[table] }).toEqual({ table, rows });
    const lists = schemaMigrations(definition);
    const latest = Object.keys(lists.service).sort().at(-1) ?? '2026_11_24_0001';
    const laterChassis: Record<string, ServiceMigration> =
      definition.chassisTables === false
        ? {}
        : { '0000_99_hypothetical': creating(definition.schema, 'hypothetical_chassis') };
    const earlierService = {
      [`${latest.slice(0, 10)}_0000_hypothetical`]: creating(definition.schema, 'hypothetical_service'),
    };
    await migrateSchema(admin.db, {
      schema: definition.schema,
      chassis: { ...lists.chassis, ...laterChassis },
      service: { ...lists.service, ...earlierService },
    });

    const tables = (
      await client.query<{ t: string }>(
        `SELECT table_name AS t FROM information_schema.tables WHERE table_schema = $1 AND table_name LIKE 'hypothetical%' ORDER BY 1`,
        [definition.schema],
      )
    ).rows.map((r) => r.t);
    expect(tables).toEqual(
      definition.chassisTables === false ? ['hypothetical_service'] : ['hypothetical_chassis', 'hypothetical_service'],
    );
    if (definition.chassisTables !== false)
      expect(await recorded(client, definition.schema, 'chassis_migration')).toEqual(
        [...Object.keys(chassisMigrations(definition.schema)), ...Object.keys(laterChassis)].sort(),
      );
    expect(await recorded(client, definition.schema, 'kysely_migration')).toEqual(
      [...Object.keys(definition.migrations), ...Object.keys(earlierService)].sort(),
    );
    await client.query(
      `DROP TABLE IF EXISTS "${definition.schema}".hypothetical_chassis, "${definition.schema}".hypothetical_service`,
    );
    expect(await shape(client, definition.schema, Object.keys(before.counts))).toEqual(before);
  } finally {
    await admin.db.destroy();
    await client.end();
    await database.drop();
  }
}

/** A service's migrations are listed in the order of their keys (dated by their commit). */
export function expectAscendingKeys(migrations: Record<string, unknown>): void {
  const keys = Object.keys(migrations);
  expect(keys).toEqual([...keys].sort());
}
