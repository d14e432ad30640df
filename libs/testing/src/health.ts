import type { z } from 'zod';
import { Client } from 'pg';
import type { RouteSpec } from '@platform/contracts';
import type { ServiceDefinition } from '@platform/service';
import { startTestService } from './service';

/**
 * Starts a service on the chassis and checks what every service must do: live, and on its admin
 * listener only ready (database and broker, naming its queues) and metrics, the 404 envelope, its schema migrated with the chassis tables,
 * and its role able to use that schema only.
 */
export async function expectChassisService<DB, X extends z.ZodRawShape, R extends RouteSpec, Ctx>(
  definition: ServiceDefinition<DB, X, R, Ctx>,
  env: NodeJS.ProcessEnv = {},
): Promise<void> {
  const t = await startTestService(definition, env);
  try {
    expect((await fetch(`${t.url}/health/live`)).status).toBe(200);
    expect((await fetch(`${t.adminUrl}/health/live`)).status).toBe(200);
    const ready = await fetch(`${t.adminUrl}/health/ready`);
    expect(ready.status).toBe(200);
    // The queues its consumers declared are named too (what a test run's clean-up deletes).
    expect(await ready.json()).toEqual({
      status: 'ok',
      checks: { database: 'ok', broker: 'ok' },
      queues: t.service.queues,
    });
    const metrics = await (await fetch(`${t.adminUrl}/metrics`)).text();
    expect(metrics).toContain(`process_cpu_user_seconds_total{service="${definition.name}"}`);
    for (const operatorOnly of ['/metrics', '/health/ready'])
      expect((await fetch(`${t.url}${operatorOnly}`)).status).toBe(404);
    const missing = await fetch(`${t.url}/nope`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({
      error: expect.objectContaining({ code: 'ROUTE.NOT_FOUND', ns: 'ROUTE', status: 404 }),
    });

    const db = new Client({ connectionString: t.databaseUrl });
    await db.connect();
    try {
      const tables = await db.query<{ table_name: string }>(
        'SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY 1',
        [definition.schema],
      );
      expect(tables.rows.map((r) => r.table_name)).toEqual(
        expect.arrayContaining(['aggregate_versions', 'outbox', 'processed_messages', 'projection_versions']),
      );
      const role = `svc_${definition.schema}`;
      const rights = await db.query<{ own: boolean; other: boolean }>(
        "SELECT has_schema_privilege($1, $2, 'USAGE') AS own, has_schema_privilege($1, 'public', 'CREATE') AS other",
        [role, definition.schema],
      );
      expect(rights.rows[0]).toEqual({ own: true, other: false });
    } finally {
      await db.end();
    }
  } finally {
    await t.close();
  }
}
