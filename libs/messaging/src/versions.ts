import { sql, type Kysely, type Migration, type QueryExecutorProvider } from 'kysely';

/**
 * Per-aggregate versions. The publishing side numbers each aggregate's events 1, 2, 3... in commit
 * order (the row lock taken by the upsert is held until commit); the consuming side remembers the
 * highest version each projection applied, so a stale or repeated event is ignored whatever order
 * it arrives in.
 */

/** Migration creating <schema>.aggregate_versions; every publishing service includes it. */
export function aggregateVersionsMigration(schema: string): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await sql`
        CREATE TABLE ${sql.id(schema, 'aggregate_versions')} (
          aggregate_id text PRIMARY KEY,
          version bigint NOT NULL
        )`.execute(db);
    },
  };
}

/** Migration creating <schema>.projection_versions; every service with a projection includes it. */
export function projectionVersionsMigration(schema: string): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await sql`
        CREATE TABLE ${sql.id(schema, 'projection_versions')} (
          projection text NOT NULL,
          aggregate_id text NOT NULL,
          version bigint NOT NULL,
          PRIMARY KEY (projection, aggregate_id)
        )`.execute(db);
    },
  };
}

/**
 * Records that `projection` is at `version` of the aggregate, in the handler's transaction; false
 * (and nothing recorded) when it already applied that version or a newer one: skip the event.
 */
export async function applyIfNewer(
  trx: QueryExecutorProvider,
  schema: string,
  projection: string,
  aggregateId: string,
  version: number,
): Promise<boolean> {
  return (await applyAllIfNewer(trx, schema, projection, [{ aggregateId, version }])).has(aggregateId);
}

/**
 * applyIfNewer for many aggregates in one statement (a batch answer, e.g. 100 product changes):
 * the ids whose version is newer than the projection's, now recorded. An id given twice counts
 * with its highest version.
 */
export async function applyAllIfNewer(
  trx: QueryExecutorProvider,
  schema: string,
  projection: string,
  entries: { aggregateId: string; version: number }[],
): Promise<Set<string>> {
  const highest = new Map<string, number>();
  for (const { aggregateId, version } of entries)
    highest.set(aggregateId, Math.max(version, highest.get(aggregateId) ?? 0));
  if (highest.size === 0) return new Set();
  const table = sql.id(schema, 'projection_versions');
  // Rows locked in one fixed order (by aggregate id): overlapping batches wait for each other instead of deadlocking.
  const ids = [...highest.keys()].sort();
  const { rows } = await sql<{ aggregate_id: string }>`
    INSERT INTO ${table} (projection, aggregate_id, version)
    SELECT ${projection}, id, v FROM UNNEST(${ids}::text[], ${ids.map((id) => highest.get(id)!)}::bigint[]) AS t(id, v)
    ON CONFLICT (projection, aggregate_id) DO UPDATE SET version = EXCLUDED.version WHERE ${table}.version < EXCLUDED.version
    RETURNING aggregate_id`.execute(trx);
  return new Set(rows.map((r) => r.aggregate_id));
}

/**
 * What a batch handler applies of changes to aggregates (a batch of events): the newest change of
 * each aggregate whose version is newer than the projection's, now recorded (applyAllIfNewer).
 */
export async function newestIfNewer<T>(
  trx: QueryExecutorProvider,
  schema: string,
  projection: string,
  changes: T[],
  versionOf: (change: T) => { aggregateId: string; version: number },
): Promise<T[]> {
  const newer = await applyAllIfNewer(trx, schema, projection, changes.map(versionOf));
  const latest = new Map<string, { change: T; version: number }>();
  for (const change of changes) {
    const { aggregateId, version } = versionOf(change);
    if (newer.has(aggregateId) && version >= (latest.get(aggregateId)?.version ?? 0))
      latest.set(aggregateId, { change, version });
  }
  return [...latest.values()].map((l) => l.change);
}
