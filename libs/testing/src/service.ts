import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { generateInternalKeyPair, InternalTokenMinter } from '@platform/auth';
import type { Tracing } from '@platform/observability';
import { PERMISSIONS, type RouteSpec } from '@platform/contracts';
import { startService, type RunningService, type ServiceDefinition } from '@platform/service';
import { deleteBrokerTopology } from './broker';
import { createTestDatabase, testInfra, uniqueName } from './infra';

export interface TestService<DB, Cfg, Ctx> {
  service: RunningService<DB, Cfg, Ctx>;
  url: string;
  /** The admin listener: health, readiness, metrics. */
  adminUrl: string;
  databaseUrl: string;
  exchange: string;
  /** An internal token for a new partner (all permissions unless given), as the gateway would mint it. */
  partner(options?: { permissions?: string[]; requiredFields?: string[] }): { id: string; token: string };
  /** The token the gateway forwards public (widget) requests with. */
  publicToken(): string;
  close(): Promise<void>;
}

/**
 * Any service on the chassis, in-process on an ephemeral port, with its own database and
 * exchange, migrated on boot, and real internal tokens; `tracing` is a test's own (e.g. an
 * InMemorySpanExporter's, shared by the services it boots).
 */
export async function startTestService<DB, X extends z.ZodRawShape, R extends RouteSpec, Ctx>(
  definition: ServiceDefinition<DB, X, R, Ctx>,
  env: NodeJS.ProcessEnv = {},
  options: { tracing?: Tracing } = {},
): Promise<TestService<DB, z.infer<z.ZodObject<X>>, Ctx>> {
  const { amqpUrl } = await testInfra();
  const database = await createTestDatabase(definition.schema);
  const keys = generateInternalKeyPair();
  const exchange = uniqueName(`${definition.schema}_events`);
  const service = await startService(definition, {
    port: 0,
    adminPort: 0,
    env: {
      DATABASE_URL: database.url,
      AMQP_URL: amqpUrl,
      EVENTS_EXCHANGE: exchange,
      INTERNAL_JWT_PUBLIC_KEY: keys.publicKey,
      MIGRATE_ON_BOOT: 'true',
      LOG_LEVEL: 'silent',
      NODE_ENV: 'test',
      ...env,
    },
    tracing: options.tracing,
  });
  const minter = new InternalTokenMinter(keys.privateKey);
  return {
    service,
    url: service.url,
    adminUrl: service.adminUrl,
    databaseUrl: database.url,
    exchange,
    partner: ({ permissions = [...PERMISSIONS], requiredFields = [] } = {}) => {
      const id = `partner_${randomUUID()}`;
      return {
        id,
        token: minter.mint(
          { partnerId: id, keyId: randomUUID(), permissions, requiredFields },
          definition.audience ?? definition.schema,
        ),
      };
    },
    publicToken: () => minter.mintPublic(definition.audience ?? definition.schema),
    close: async () => {
      await service.stop();
      await database.drop();
      await deleteBrokerTopology(amqpUrl, {
        exchanges: [exchange, `${exchange}.unrouted`],
        queues: [`${exchange}.unrouted`, ...service.queues],
      });
    },
  };
}
