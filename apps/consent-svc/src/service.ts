import type { ServiceDefinition } from '@platform/service';

/** Consent records: on the chassis, migrated and healthy, serving and consuming nothing until its issue. */
export const consentService = {
  name: 'consent-svc',
  schema: 'consent',
  audience: 'consent',
  listen: { portEnv: 'CONSENT_PORT', hostEnv: 'CONSENT_HOST', defaultPort: 8084 },
  migrations: {},
} satisfies ServiceDefinition<unknown, Record<string, never>, never, undefined>;
