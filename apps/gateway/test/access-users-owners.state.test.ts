import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { createDb, sql, type Kysely } from '@platform/db';
import { AppError } from '@platform/http';
import { createTestDatabase, holdCommit, waitFor } from '@platform/testing';
import { migrateGateway } from '../src/db/migrations';
import { GATEWAY_SCHEMA, type GatewayDb } from '../src/db/tables';
import type { IdentityService } from '../src/identity/identity.service';
import { AccessUsersService, type AccessActor } from '../src/owner-access/access-users.service';

/**
 * The customer's OWNERs on the real database: the account keeps an OWNER with access however its
 * users are changed, concurrent demotions included, and in the owner console only an OWNER
 * touches OWNERs.
 */
describe("the customer's OWNERs (AccessUsersService, PostgreSQL)", () => {
  let database: { url: string; drop: () => Promise<void> };
  let db: Kysely<GatewayDb>;
  let service: AccessUsersService;
  let partnerId: string;

  beforeAll(async () => {
    database = await createTestDatabase('gateway');
    db = createDb<GatewayDb>({ url: database.url, schema: GATEWAY_SCHEMA, max: 4 }).db;
    await migrateGateway(db);
    partnerId = (
      await db.insertInto('partners').values({ name: 'Owners Partner' }).returning('id').executeTakeFirstOrThrow()
    ).id;
    // Changing and removing users needs no sign-in links: the identity service is not reached.
    service = new AccessUsersService(db, {} as IdentityService);
  });
  afterAll(async () => {
    await db?.destroy();
    await database?.drop();
  });

  /** A customer account of its own with the given users; the partner acting on it, or an owner of it. */
  const account = async (roles: ('OWNER' | 'ADMIN' | 'VIEWER')[]) => {
    const companyId = `company-${randomUUID()}`;
    const ids: string[] = [];
    for (const [i, role] of roles.entries()) {
      const row = await db
        .insertInto('owner_users')
        .values({ partner_id: partnerId, company_id: companyId, email: `u${i}@${companyId}.test`, role })
        .returning('id')
        .executeTakeFirstOrThrow();
      ids.push(row.id);
    }
    const as = (role?: 'OWNER' | 'ADMIN'): AccessActor => ({
      partnerId,
      companyId,
      actor: { type: 'OPERATOR', id: null, label: 'test' },
      ...(role ? { role } : {}),
    });
    return { ids, as };
  };
  const codeOf = (p: Promise<unknown>) =>
    p.then(
      () => 'ok',
      (err: unknown) => (err instanceof AppError ? err.code : String(err)),
    );

  it('when the only OWNER with access would be demoted, turned off or removed, then 409 ACCESS_USER.LAST_OWNER and nothing changes', async () => {
    const { ids, as } = await account(['OWNER', 'ADMIN']);
    const [owner, admin] = ids;
    expect(await codeOf(service.update(as(), owner, { role: 'ADMIN' }))).toBe('ACCESS_USER.LAST_OWNER');
    expect(await codeOf(service.update(as(), owner, { access: false }))).toBe('ACCESS_USER.LAST_OWNER');
    expect(await codeOf(service.remove(as(), owner))).toBe('ACCESS_USER.LAST_OWNER');
    expect(await service.get(as(), owner)).toMatchObject({ role: 'OWNER', access: true });
    // Changes that keep it an OWNER with access, and changes to others, go through.
    expect(await codeOf(service.update(as(), owner, { role: 'OWNER', access: true }))).toBe('ok');
    expect(await codeOf(service.update(as(), admin, { access: false }))).toBe('ok');
    // With a second OWNER, the first may go.
    expect(await codeOf(service.update(as(), admin, { role: 'OWNER', access: true }))).toBe('ok');
    expect(await codeOf(service.remove(as(), owner))).toBe('ok');
    expect(await codeOf(service.update(as(), admin, { role: 'VIEWER' }))).toBe('ACCESS_USER.LAST_OWNER');
  });

  it('when the last OWNER is provisioned with a lower role, then 409 too', async () => {
    const { as } = await account(['OWNER']);
    const email = (await service.list(as(), { page: 1, limit: 10 })).result[0].email;
    expect(await codeOf(service.provision(as(), { email, role: 'VIEWER' }))).toBe('ACCESS_USER.LAST_OWNER');
  });

  it('when an ADMIN of the console touches OWNER, then 403; an OWNER may', async () => {
    const { ids, as } = await account(['OWNER', 'OWNER', 'ADMIN', 'VIEWER']);
    const [owner, , admin, viewer] = ids;
    expect(await codeOf(service.update(as('ADMIN'), owner, { access: false }))).toBe('AUTH.FORBIDDEN');
    expect(await codeOf(service.update(as('ADMIN'), viewer, { role: 'OWNER' }))).toBe('AUTH.FORBIDDEN');
    expect(await codeOf(service.remove(as('ADMIN'), owner))).toBe('AUTH.FORBIDDEN');
    expect(await codeOf(service.invite(as('ADMIN'), { email: 'new@x.test', role: 'OWNER' }))).toBe('AUTH.FORBIDDEN');
    expect(await codeOf(service.update(as('ADMIN'), viewer, { role: 'ADMIN' }))).toBe('ok');
    expect(await codeOf(service.update(as('OWNER'), admin, { role: 'OWNER' }))).toBe('ok');
    expect(await codeOf(service.remove(as('OWNER'), owner))).toBe('ok');
  });

  it('when the last two OWNERs are demoted at once, then one demotion waits for the other and is refused', async () => {
    const { ids, as } = await account(['OWNER', 'OWNER']);
    const [first, second] = ids;
    // The first demotion is held at its COMMIT (its audit event's insert), its locks taken.
    const hold = await holdCommit(database.url, 'gateway.audit_events', `NEW.target_id = '${first}'`);
    const watcher = new Client({ connectionString: database.url });
    await watcher.connect();
    try {
      const one = codeOf(service.update(as(), first, { role: 'ADMIN' }));
      await hold.waiting();
      const two = codeOf(service.update(as(), second, { role: 'ADMIN' }));
      // The second waits on the OWNERs' row locks until the first commits.
      await waitFor(
        async () =>
          (
            await watcher.query(
              `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%owner_users%'`,
            )
          ).rows[0],
        { timeoutMs: 10_000, what: 'the second demotion waiting on the row locks' },
      );
      await hold.release();
      expect([await one, await two]).toEqual(['ok', 'ACCESS_USER.LAST_OWNER']);
    } finally {
      await hold.drop();
      await watcher.end();
    }
    const owners = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM gateway.owner_users WHERE id IN (${first}, ${second}) AND role = 'OWNER'`.execute(
      db,
    );
    expect(owners.rows[0].n).toBe(1);
  });
});
