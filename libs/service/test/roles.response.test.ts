import { z } from 'zod';
import { defineRoute, resultOf } from '@platform/contracts';
import { startTestService } from '@platform/testing';
import type { ServiceDefinition } from '../src';
import { roleCheck } from '../src/roles';

const pingRoute = defineRoute({
  operationId: 'ping',
  method: 'get',
  path: '/portal/ping',
  service: 'billing',
  permission: 'products:read',
  summary: 'Ping',
  tag: 'Test',
  response: resultOf(z.object({ partner: z.string() })),
  errors: [],
});

/** A service with one worker role beside its routes; its context records what the process runs. */
const withRoles: ServiceDefinition<unknown, Record<string, never>, typeof pingRoute, { runsWorker: boolean }> = {
  name: 'roles-test',
  schema: 'roles_test',
  audience: 'billing',
  listen: { portEnv: 'ROLES_TEST_PORT', hostEnv: 'ROLES_TEST_HOST', defaultPort: 0 },
  migrations: {},
  roles: { env: 'ROLES_TEST_ROLE', workers: ['worker'] },
  context: ({ runs }) => ({ runsWorker: runs('worker') }),
  routes: [pingRoute],
  handlers: () => ({ ping: ({ caller }) => ({ result: { partner: caller.partnerId } }) }),
};

async function pingAs(role: string | undefined) {
  const t = await startTestService(withRoles, role ? { ROLES_TEST_ROLE: role } : {});
  try {
    const partner = t.partner({ permissions: ['products:read'] });
    const res = await fetch(`${t.url}/portal/ping`, { headers: { authorization: `Bearer ${partner.token}` } });
    return { status: res.status, runsWorker: t.service.context.runsWorker };
  } finally {
    await t.close();
  }
}

describe('roles: one env variable picks what a process runs', () => {
  it('when the role is unset (all), then the routes are served and the worker runs', async () => {
    expect(await pingAs(undefined)).toEqual({ status: 200, runsWorker: true });
  });

  it('when the role is api, then the routes are served and the worker does not run', async () => {
    expect(await pingAs('api')).toEqual({ status: 200, runsWorker: false });
  });

  it('when the role is a worker role, then /portal is not served and the worker runs', async () => {
    expect(await pingAs('worker')).toEqual({ status: 404, runsWorker: true });
  });

  it('when the role names no role of the service, then boot fails naming the variable', async () => {
    await expect(startTestService(withRoles, { ROLES_TEST_ROLE: 'scanner' })).rejects.toThrow(/ROLES_TEST_ROLE/);
  });

  it('when code asks for a role the service never declared, then it throws (a typo is a bug, not "not this role")', () => {
    const runs = roleCheck({ env: 'X_ROLE', workers: ['worker'] }, 'all');
    expect(() => runs('wroker')).toThrow(/unknown role wroker/);
    expect(roleCheck(undefined, undefined)('api')).toBe(true);
  });
});
