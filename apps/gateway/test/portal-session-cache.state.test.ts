import { Client } from 'pg';
import { envelope, waitFor } from '@platform/testing';
import { admin, json, startGateway, type Gateway } from './support/harness';
import { PORTAL_TEST_ROUTES, startPortalSuite, type PortalSuite, type SignedIn } from './support/portal';

/** "At once" on another gateway: within the NOTIFY's delivery. */
const NOTIFY_DEADLINE_MS = 2_000;

describe('portal sessions answered from memory, on two gateways of one database', () => {
  let p: PortalSuite;
  /** The suite's gateway (A) and a second one (B) on the same database and clock. */
  let a: Gateway;
  let b: Gateway;
  let partnerId: string;
  let root: SignedIn;
  let sql: Client;

  beforeAll(async () => {
    p = await startPortalSuite();
    a = p.gateway;
    b = await startGateway(
      { ...p.suite.env, SMTP_URL: p.smtp.url, TRUSTED_PROXIES: 'loopback', PORTAL_URL: 'http://127.0.0.1:8080/app' },
      PORTAL_TEST_ROUTES,
      { now: p.now },
    );
    partnerId = await p.suite.partner();
    root = await p.signIn(partnerId, 'root@cache.test', 'ADMINISTRATOR');
    sql = new Client({ connectionString: p.suite.databaseUrl });
    await sql.connect();
  });
  afterEach(() => p.resetClock());
  afterAll(async () => {
    await sql?.end();
    await b?.close();
    await p?.close();
  });

  const call = (g: Gateway, who: SignedIn, method: string, path: string, body?: unknown) =>
    fetch(`${g.url}${path}`, {
      method,
      headers: {
        cookie: who.cookie,
        ...(method === 'GET' ? {} : { 'x-csrf-token': who.csrf }),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  const statusOn = async (g: Gateway, who: SignedIn) => (await call(g, who, 'GET', '/portal/things')).status;
  const sessionOn = async (g: Gateway, who: SignedIn) => json(await call(g, who, 'GET', '/portal/auth/session'));

  const lookups = async (g: Gateway) => {
    const { values } = await g.deps.metrics.sessionLookups.get();
    const of = (source: string) => values.find((v) => v.labels.source === source)?.value ?? 0;
    return { memory: of('memory'), database: of('database') };
  };

  /** A user signed in (on A) whose session both gateways have answered, B's second call from memory. */
  async function usedOnBoth(email: string, role = 'DEVELOPER') {
    const who = await p.signIn(partnerId, email, role);
    for (const g of [a, b, a, b]) expect(await statusOn(g, who)).toBe(200);
    const before = await lookups(b);
    expect(await statusOn(b, who)).toBe(200);
    expect(await lookups(b)).toEqual({ memory: before.memory + 1, database: before.database });
    return who;
  }

  /** The condition holds on this gateway now, and on the other within the NOTIFY deadline. */
  async function seenAtOnceOn(here: Gateway, there: Gateway, holds: (g: Gateway) => Promise<boolean>) {
    expect(await holds(here)).toBe(true);
    await waitFor(() => holds(there), { timeoutMs: NOTIFY_DEADLINE_MS, what: 'the change on the other gateway' });
  }

  const ended = (who: SignedIn) => async (g: Gateway) => (await statusOn(g, who)) === 401;

  it('when a session calls again within the touch interval, then the gateway answers it from memory, even with its tables locked', async () => {
    const who = await usedOnBoth('memory@cache.test');
    const before = await lookups(a);
    for (let i = 0; i < 5; i++) expect(await statusOn(a, who)).toBe(200);
    expect(await lookups(a)).toEqual({ memory: before.memory + 5, database: before.database });
    // A read of the session would wait for the lock (10 s statement timeout): a copy answers at once.
    await sql.query('BEGIN');
    try {
      await sql.query('LOCK TABLE gateway.sessions, gateway.users, gateway.partners IN ACCESS EXCLUSIVE MODE');
      const res = await fetch(`${a.url}/portal/things`, {
        headers: { cookie: who.cookie },
        signal: AbortSignal.timeout(1_000),
      });
      expect(res.status).toBe(200);
    } finally {
      await sql.query('ROLLBACK');
    }
  });

  it('when the touch interval has passed, then the next call reads the database and moves last_seen_at; the one after is from memory', async () => {
    const who = await usedOnBoth('touch@cache.test');
    const seen = async () =>
      (
        await sql.query<{ last_seen_at: Date }>('SELECT last_seen_at FROM gateway.sessions s WHERE s.user_id = $1', [
          who.userId,
        ])
      ).rows[0].last_seen_at.getTime();
    const seenBefore = await seen();
    p.advance(61_000);
    const before = await lookups(a);
    expect(await statusOn(a, who)).toBe(200);
    expect(await statusOn(a, who)).toBe(200);
    expect(await lookups(a)).toEqual({ memory: before.memory + 1, database: before.database + 1 });
    expect(await seen()).toBeGreaterThanOrEqual(seenBefore + 61_000);
  });

  it('when the user signs out on A, then A refuses the cookie at once and B within the NOTIFY', async () => {
    const who = await usedOnBoth('out@cache.test');
    expect((await call(a, who, 'DELETE', '/portal/auth/session')).status).toBe(204);
    await seenAtOnceOn(a, b, ended(who));
    expect(await json(await call(b, who, 'GET', '/portal/things'))).toEqual(envelope('AUTH.SESSION_REQUIRED', 401));
  });

  it("when an administrator on A changes a user's role or deactivates them, then the user's session ends on A at once and on B within the NOTIFY", async () => {
    for (const [i, change] of [{ role: 'ACCOUNT_MANAGER' }, { active: false }].entries()) {
      const who = await usedOnBoth(`changed-${i}@cache.test`);
      expect((await call(a, root, 'PATCH', `/portal/users/${who.userId}`, change)).status).toBe(200);
      await seenAtOnceOn(a, b, ended(who));
    }
  });

  it("when an administrator on A renames a user, then the user's session shows the new name on A at once and on B within the NOTIFY", async () => {
    const who = await usedOnBoth('renamed@cache.test');
    expect((await sessionOn(b, who)).result.user.name).toBeNull();
    expect((await call(a, root, 'PATCH', `/portal/users/${who.userId}`, { name: 'Renée' })).status).toBe(200);
    await seenAtOnceOn(a, b, async (g) => (await sessionOn(g, who)).result.user.name === 'Renée');
  });

  it("when an administrator on A changes the partner's settings, then every session of the partner carries them on A at once and on B within the NOTIFY", async () => {
    const who = await usedOnBoth('settings@cache.test');
    const name = `renamed partner ${Date.now()}`;
    expect((await call(a, root, 'PATCH', '/portal/settings', { name })).status).toBe(200);
    await seenAtOnceOn(a, b, async (g) => (await sessionOn(g, who)).result.partner.name === name);
  });

  it('when an operator changes the partner with the admin CLI, then both gateways carry it to services within the NOTIFY', async () => {
    const who = await usedOnBoth('cli@cache.test');
    await admin(p.suite.databaseUrl, 'partner', 'update', '--partner', partnerId, '--require-fields', 'phone_number');
    const carried = (g: Gateway) => async () =>
      (await json(await call(g, who, 'GET', '/portal/things'))).result.caller.requiredFields?.includes('phone_number');
    for (const g of [a, b]) await waitFor(carried(g), { timeoutMs: NOTIFY_DEADLINE_MS, what: 'the required field' });
  });

  it("when an operator deletes a user's sessions in psql, then both gateways refuse the cookie within the NOTIFY", async () => {
    const who = await usedOnBoth('psql@cache.test');
    await sql.query('DELETE FROM gateway.sessions WHERE user_id = $1', [who.userId]);
    for (const g of [a, b]) await waitFor(() => ended(who)(g), { timeoutMs: NOTIFY_DEADLINE_MS, what: 'the end' });
  });

  it('when the session listeners lose their connections, then a sign-out meanwhile is still not missed', async () => {
    const who = await usedOnBoth('listener@cache.test');
    // One round trip: the sessions end while the gateways' LISTEN connections go (their NOTIFY may be lost).
    await sql.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
         WHERE application_name = 'gateway_sessions_listener' AND datname = current_database();
       DELETE FROM gateway.sessions WHERE user_id = '${who.userId}'`,
    );
    for (const g of [a, b]) await waitFor(() => ended(who)(g), { timeoutMs: NOTIFY_DEADLINE_MS, what: 'the end' });
    await waitFor(() => (a.deps.sessionListener.listening && b.deps.sessionListener.listening) || undefined, {
      what: 'the listeners to come back',
    });
  });
});
