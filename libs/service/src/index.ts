/** The service chassis: how every service boots, migrates, serves, consumes, measures and stops. */
export { idempotencyEnv, type ServiceConfig } from './config';
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
export { ServiceCaller, type CallAs } from './service-caller';
export { eventPush, eventPushReceiver, type EventPush, type EventPushOptions, type EventPushRoute } from './event-push';
export { runService, startService } from './start-service';
export { API_ROLE, type RolesOption } from './roles';
export { IdempotencyKeys, pruneIdempotencyKeysJob } from './idempotency/keys.repository';
export { runKeyed, type KeyedRequest, type KeyedSettings } from './idempotency/keyed-handlers';
export { idempotencyKeysMigration } from './idempotency/migration';
export {
  FINGERPRINT_HEADER,
  idempotencyKeyOf,
  isKeptAnswer,
  REPLAYED_HEADER,
  requestFingerprint,
} from './idempotency/rules';
