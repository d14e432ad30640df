import type { Migration } from '@platform/db';
import { aggregateVersionsMigration, consumerMigration, outboxMigration, projectionVersionsMigration } from '@platform/messaging';

/**
 * The tables the chassis needs in every service's schema: the outbox and aggregate versions
 * (publishing), processed message ids and projection versions (consuming). A service lists these
 * first and its own migrations after them.
 */
export const chassisMigrations = (schema: string): Record<string, Migration> => ({
  '0000_01_outbox': outboxMigration(schema),
  '0000_02_aggregate_versions': aggregateVersionsMigration(schema),
  '0000_03_processed_messages': consumerMigration(schema),
  '0000_04_projection_versions': projectionVersionsMigration(schema),
});
