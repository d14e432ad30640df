import { chassisMigrations, type ServiceDefinition } from '@platform/service';

/** Products, price lists and subscriptions: on the chassis, migrated and healthy, serving and consuming nothing until its issue. */
export const billingService = {
  name: 'billing-svc',
  schema: 'billing',
  audience: 'billing',
  listen: { portEnv: 'BILLING_PORT', hostEnv: 'BILLING_HOST', defaultPort: 8082 },
  migrations: { ...chassisMigrations('billing') },
} satisfies ServiceDefinition<unknown, Record<string, never>, never, undefined>;
