import { chassisMigrations, type ServiceDefinition } from '@platform/service';

/** Merchants: on the chassis, migrated and healthy, serving and consuming nothing until its issue. */
export const merchantsService = {
  name: 'merchants-svc',
  schema: 'merchants',
  audience: 'merchants',
  listen: { portEnv: 'MERCHANTS_PORT', hostEnv: 'MERCHANTS_HOST', defaultPort: 8083 },
  migrations: { ...chassisMigrations('merchants') },
} satisfies ServiceDefinition<unknown, Record<string, never>, never, undefined>;
