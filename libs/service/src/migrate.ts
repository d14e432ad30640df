import { z } from 'zod';
import { env, parseEnv } from '@platform/config';
import { createDb, ensureServiceRole, inTransaction, migrateToLatest, ping, sql, type Kysely } from '@platform/db';
import {
  CHASSIS_MIGRATION_TABLE,
  chassisMigrations,
  SERVICE_MIGRATION_TABLE,
  type ServiceMigration,
} from './migrations';

/** What a schema is migrated with: a service's definition, or the gateway's. */
export interface MigratedService {
  name: string;
  schema: string;
  /** The service's own migrations, keyed by the date of their commit, listed in ascending order. */
  migrations: Record<string, ServiceMigration>;
  /** false: the schema has none of the chassis' tables (the gateway neither publishes nor consumes). */
  chassisTables?: boolean;
}

/** A schema's two migration lists, each recorded in its own table. */
export interface SchemaMigrations {
  schema: string;
  chassis: Record<string, ServiceMigration>;
  service: Record<string, ServiceMigration>;
}

export const schemaMigrations = (definition: Omit<MigratedService, 'name'>): SchemaMigrations => ({
  schema: definition.schema,
  chassis: definition.chassisTables === false ? {} : chassisMigrations(definition.schema),
  service: definition.migrations,
});

/**
 * Applies a schema's migrations: the chassis' first, then the service's, each list in name order
 * and in its own table, so a migration added to either at any later date runs on an existing
 * schema. What a previous release recorded is adopted first.
 */
export async function migrateSchema(db: Kysely<unknown>, lists: SchemaMigrations) {
  await adoptPreviousRecords(db, lists);
  if (Object.keys(lists.chassis).length > 0)
    await migrateToLatest(db, lists.schema, lists.chassis, CHASSIS_MIGRATION_TABLE);
  await migrateToLatest(db, lists.schema, lists.service, SERVICE_MIGRATION_TABLE);
}

/**
 * Releases before chassis_migration recorded the chassis' tables among the service's migrations
 * (domains-svc under names of its own), and some keys were renamed since. Moves and renames those
 * records in one transaction: a migrator refuses a record its list lacks.
 */
async function adoptPreviousRecords(db: Kysely<unknown>, { schema, chassis, service }: SchemaMigrations) {
  const records = sql.id(schema, SERVICE_MIGRATION_TABLE);
  const chassisRecords = sql.id(schema, CHASSIS_MIGRATION_TABLE);
  await inTransaction(db, async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(hashtext(${`migrations:${schema}`}))`.execute(trx);
    const { rows } = await sql<{
      found: string | null;
    }>`SELECT to_regclass(format('%I.%I', ${schema}::text, ${SERVICE_MIGRATION_TABLE}::text))::text AS found`.execute(
      trx,
    );
    if (!rows[0]?.found) return;
    for (const [name, migration] of Object.entries(service)) {
      if (migration.formerNames)
        await sql`UPDATE ${records} SET name = ${name} WHERE name = ANY(${migration.formerNames}::text[])`.execute(trx);
    }
    if (Object.keys(chassis).length === 0) return;
    // The table kysely's Migrator would create.
    await sql`CREATE TABLE IF NOT EXISTS ${chassisRecords} (name varchar(255) NOT NULL PRIMARY KEY, "timestamp" varchar(255) NOT NULL)`.execute(
      trx,
    );
    for (const [name, migration] of Object.entries(chassis)) {
      await sql`
        WITH moved AS (DELETE FROM ${records} WHERE name = ANY(${[name, ...(migration.formerNames ?? [])]}::text[]) RETURNING "timestamp")
        INSERT INTO ${chassisRecords} (name, "timestamp") SELECT ${name}, min("timestamp") FROM moved HAVING count(*) > 0
        ON CONFLICT (name) DO NOTHING`.execute(trx);
    }
  });
}

/** Applies the service's migrations and sets up its role, as the URL's (admin) user. */
export async function migrateService(definition: MigratedService, databaseUrl: string) {
  const admin = createDb<unknown>({ url: databaseUrl, schema: definition.schema, max: 1 });
  try {
    await ping(admin.db);
    await migrateSchema(admin.db, schemaMigrations(definition));
    await ensureServiceRole(admin.db, definition.schema);
  } finally {
    await admin.db.destroy();
  }
}

/** The names recorded in one of the schema's migration tables; none when it is absent (or unreadable). */
async function recordedNames(db: Kysely<unknown>, schema: string, table: string): Promise<Set<string>> {
  try {
    const { rows } = await sql<{ name: string }>`SELECT name FROM ${sql.id(schema, table)}`.execute(db);
    return new Set(rows.map((r) => r.name));
  } catch {
    return new Set();
  }
}

/** Refuses to run on a schema that lacks some of the service's migrations (MIGRATE_ON_BOOT off). */
export async function assertMigrated(db: Kysely<unknown>, definition: MigratedService) {
  const { schema, chassis, service } = schemaMigrations(definition);
  const chassisDone = await recordedNames(db, schema, CHASSIS_MIGRATION_TABLE);
  const serviceDone = await recordedNames(db, schema, SERVICE_MIGRATION_TABLE);
  const pending = [
    ...Object.keys(chassis).filter((name) => !chassisDone.has(name)),
    ...Object.keys(service).filter((name) => !serviceDone.has(name)),
  ];
  if (pending.length > 0) {
    throw new Error(
      `schema ${schema} lacks ${pending.length} migration(s) (${pending.join(', ')}): run node dist/apps/${definition.name}/migrate.js, or set MIGRATE_ON_BOOT=true`,
    );
  }
}

/** migrate.ts of a service: applies its migrations as the DATABASE_URL user and exits. */
export function runMigrations(definition: MigratedService): void {
  const { DATABASE_URL } = parseEnv(z.object({ DATABASE_URL: env.databaseUrl }));
  migrateService(definition, DATABASE_URL).then(
    () => {
      console.log(`${definition.name}: schema ${definition.schema} is up to date`);
    },
    (err: unknown) => {
      console.error(`${definition.name}: migration failed: ${err instanceof Error ? err.message : String(err)}`);
      process.exit(1);
    },
  );
}
