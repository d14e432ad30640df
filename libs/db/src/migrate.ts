import { Migrator, sql, type Kysely, type Migration } from 'kysely';
import { pgErrorCode, PG_UNIQUE_VIOLATION } from './pg-errors';

/** Kysely's own table name. */
const DEFAULT_MIGRATION_TABLE = 'kysely_migration';

/** Creates the schema if it is not there yet. */
async function createSchema(db: Kysely<unknown>, schema: string) {
  try {
    await sql`CREATE SCHEMA IF NOT EXISTS ${sql.id(schema)}`.execute(db);
  } catch (err) {
    // Another process created it at the same moment (IF NOT EXISTS does not cover the race).
    if (pgErrorCode(err) !== PG_UNIQUE_VIOLATION) throw err;
  }
}

/**
 * Creates the schema if needed and applies the migrations not yet recorded in `<schema>.<table>`,
 * in name order. A migration merged late with a name before the last applied one still runs
 * (allowUnorderedMigrations); a recorded name missing from the list is refused.
 */
export async function migrateToLatest(
  db: Kysely<unknown>,
  schema: string,
  migrations: Record<string, Migration>,
  table = DEFAULT_MIGRATION_TABLE,
) {
  await createSchema(db, schema);
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    migrationTableSchema: schema,
    migrationTableName: table,
    migrationLockTableName: `${table}_lock`,
    allowUnorderedMigrations: true,
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error');
    throw new Error(`migration ${failed?.migrationName ?? '?'} of schema ${schema} failed: ${String(error)}`);
  }
  return results ?? [];
}
