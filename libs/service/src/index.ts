/** The service chassis: how every service boots, migrates, serves, consumes, measures and stops. */
export type { ServiceConfig } from './config';
export type {
  BackgroundWork,
  ConfigOf,
  ConsumerSpec,
  RunningService,
  ServiceDefinition,
  ServiceRuntime,
} from './definition';
export { createServiceMetrics, recordJobRun, type ServiceMetrics } from './metrics';
export { assertMigrated, migrateSchema, migrateService, runMigrations, schemaMigrations } from './migrate';
export { chassisMigrations, type ServiceMigration } from './migrations';
export { ServiceCaller } from './service-caller';
export { eventPush, eventPushReceiver, type EventPush, type EventPushOptions, type EventPushRoute } from './event-push';
export { runService, startService } from './start-service';
export { API_ROLE, type RolesOption } from './roles';
export { IdempotencyKeys } from './idempotency/keys.repository';
export {
  FINGERPRINT_HEADER,
  idempotencyKeyOf,
  isKeptAnswer,
  REPLAYED_HEADER,
  requestFingerprint,
} from './idempotency/rules';
