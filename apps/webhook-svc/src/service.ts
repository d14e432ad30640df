import { chassisMigrations, type ServiceDefinition } from '@platform/service';

/** Webhook endpoints and deliveries: on the chassis, migrated and healthy, serving and consuming nothing until its issue. */
export const webhookService = {
  name: 'webhook-svc',
  schema: 'webhooks',
  audience: 'webhooks',
  listen: { portEnv: 'WEBHOOK_PORT', hostEnv: 'WEBHOOK_HOST', defaultPort: 8085 },
  migrations: { ...chassisMigrations('webhooks') },
} satisfies ServiceDefinition<unknown, Record<string, never>, never, undefined>;
