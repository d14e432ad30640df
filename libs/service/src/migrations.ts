import type { Migration } from '@platform/db';
import { idempotencyKeysMigration } from './idempotency/migration';
import {
  aggregateVersionsMigration,
  consumerMigration,
  outboxMigration,
  outboxTraceparentMigration,
  projectionVersionsMigration,
} from '@platform/messaging';

/**
 * A migration with the names a previous release recorded it under (a renamed key): migrating
 * renames the record instead of running it again.
 */
export type ServiceMigration = Migration & { formerNames?: readonly string[] };

/**
 * The tables the chassis needs in every service's schema: the outbox and aggregate versions
 * (publishing) and the trace context of each outbox row, processed message ids and projection versions (consuming), Idempotency-Keys
 * and their answers (keyed writes). Recorded in the
 * schema's own table (CHASSIS_MIGRATION_TABLE) and applied before the service's, so a chassis
 * migration added later runs on every existing schema. Add new ones at the end.
 */
export const chassisMigrations = (schema: string): Record<string, ServiceMigration> => ({
  // The former names are domains-svc's, which listed these tables itself before this list existed.
  '0000_01_outbox': { ...outboxMigration(schema), formerNames: ['2026_01_01_0001_outbox'] },
  '0000_02_aggregate_versions': {
    ...aggregateVersionsMigration(schema),
    formerNames: ['2026_11_22_0001_aggregate_versions'],
  },
  '0000_03_processed_messages': { ...consumerMigration(schema), formerNames: ['2026_11_22_0003_processed_messages'] },
  '0000_04_projection_versions': {
    ...projectionVersionsMigration(schema),
    formerNames: ['2026_11_22_0004_projection_versions'],
  },
  '0000_05_idempotency_keys': idempotencyKeysMigration(schema),
  '0000_06_outbox_traceparent': outboxTraceparentMigration(schema),
});

/** Where a schema records the chassis' migrations; the service's own are in kysely_migration. */
export const CHASSIS_MIGRATION_TABLE = 'chassis_migration';

/** Where a schema records the service's own migrations (kysely's default table). */
export const SERVICE_MIGRATION_TABLE = 'kysely_migration';
