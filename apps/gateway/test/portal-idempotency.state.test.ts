import { sql } from '@platform/db';
import { envelope } from '@platform/testing';
import { json } from './support/harness';
import { startPortalSuite, type PortalSuite, type SignedIn } from './support/portal';

/**
 * The gateway's own writes (keys, team, settings) with an Idempotency-Key, through the real
 * gateway: they keep the key as a service's writes do (libs/service runKeyed, the gateway's
 * idempotency_keys), per partner, with the user in "the same request".
 */
describe("Idempotency-Key on the gateway's own writes", () => {
  let p: PortalSuite;
  let partnerId: string;
  let admin: SignedIn;

  beforeAll(async () => {
    p = await startPortalSuite();
    partnerId = await p.suite.partner();
    admin = await p.signIn(partnerId, 'keyed@a.test', 'ADMINISTRATOR');
  });
  afterAll(async () => {
    await p?.close();
  });

  const keyed = (who: SignedIn, method: string, path: string, key: string, body?: unknown) =>
    p.call(who, method, path, body, { headers: { 'idempotency-key': key } });
  const createKey = (who: SignedIn, key: string, name: string) =>
    keyed(who, 'POST', '/portal/api-keys', key, { name, permissions: ['domains:read'] });
  const keysNamed = async (who: SignedIn, name: string) =>
    (await json(await p.call(who, 'GET', '/portal/api-keys?limit=100'))).result.filter(
      (k: { name: string }) => k.name === name,
    );
  const auditEvents = async (who: SignedIn, kind: string) =>
    (await json(await p.call(who, 'GET', `/portal/audit-events?limit=100&kind=${kind}`))).result;

  it('when a user creates an API key twice with one Idempotency-Key, then one key is made and the retry gets the first answer, secret included, marked replayed', async () => {
    const first = await createKey(admin, 'create-once', 'once');
    const retry = await createKey(admin, 'create-once', 'once');
    expect([first.status, retry.status]).toEqual([201, 201]);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    const [firstBody, retryBody] = [await first.text(), await retry.text()];
    expect(retryBody).toBe(firstBody);
    const created = JSON.parse(firstBody).result;
    expect(created.secret).toMatch(/^pdm_live_/);
    expect((await keysNamed(admin, 'once')).map((k: { id: string }) => k.id)).toEqual([created.id]);
    const events = await auditEvents(admin, 'api_key.created');
    expect(events.filter((e: { target: { id: string } }) => e.target.id === created.id)).toHaveLength(1);
  });

  it("when the key comes again with another body or from another user of the partner, then 409 IDEMPOTENCY.KEY_REUSED and nothing is made; another partner's user has keys of its own", async () => {
    const made = await createKey(admin, 'shared-key', 'shared-a');
    expect(made.status).toBe(201);
    const otherBody = await createKey(admin, 'shared-key', 'shared-b');
    expect(otherBody.status).toBe(409);
    expect(await json(otherBody)).toEqual(envelope('IDEMPOTENCY.KEY_REUSED', 409));
    const colleague = await p.signIn(partnerId, 'colleague@a.test', 'ACCOUNT_MANAGER');
    const sameBodyOtherUser = await createKey(colleague, 'shared-key', 'shared-a');
    expect(sameBodyOtherUser.status).toBe(409);
    expect(await json(sameBodyOtherUser)).toEqual(envelope('IDEMPOTENCY.KEY_REUSED', 409));
    expect(await keysNamed(admin, 'shared-b')).toEqual([]);
    expect(await keysNamed(admin, 'shared-a')).toHaveLength(1);

    const elsewhere = await p.signIn(await p.suite.partner(), 'keyed@b.test', 'ADMINISTRATOR');
    const theirs = await createKey(elsewhere, 'shared-key', 'shared-a');
    expect(theirs.status).toBe(201);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect((await json(theirs)).result.id).not.toBe((await json(made)).result.id);
  });

  it('when several requests with one key arrive at once, then one key is made; the others answer the same or 409 IDEMPOTENCY.IN_PROGRESS', async () => {
    const answers = await Promise.all(Array.from({ length: 4 }, () => createKey(admin, 'at-once', 'at-once')));
    const statuses = answers.map((r) => r.status);
    expect(statuses).toContain(201);
    expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
    const bodies = await Promise.all(answers.map(async (r) => ({ status: r.status, body: await json(r) })));
    const created = bodies.filter((b) => b.status === 201).map((b) => b.body.result.id);
    expect(new Set(created).size).toBe(1);
    for (const refused of bodies.filter((b) => b.status === 409))
      expect(refused.body).toEqual(envelope('IDEMPOTENCY.IN_PROGRESS', 409));
    expect(await keysNamed(admin, 'at-once')).toHaveLength(1);
  });

  it('when an invitation, a settings change and a revoke are retried with their keys, then each ran once and the retry replays its answer (no USER.ALREADY_EXISTS)', async () => {
    const own = await p.suite.partner();
    const boss = await p.signIn(own, 'boss@c.test', 'ADMINISTRATOR');
    const invite = () => keyed(boss, 'POST', '/portal/users', 'invite-1', { email: 'twice@c.test', role: 'DEVELOPER' });
    const [invited, reinvited] = [await invite(), await invite()];
    expect([invited.status, reinvited.status]).toEqual([201, 201]);
    expect(await reinvited.text()).toBe(await invited.text());
    const invitations = (await auditEvents(boss, 'user.invited')).filter(
      (e: { details: { email: string } }) => e.details.email === 'twice@c.test',
    );
    expect(invitations).toHaveLength(1);
    // Without the key, the same invitation is the conflict it is.
    const unkeyed = await p.call(boss, 'POST', '/portal/users', { email: 'twice@c.test', role: 'DEVELOPER' });
    expect(unkeyed.status).toBe(409);

    const rename = () => keyed(boss, 'PATCH', '/portal/settings', 'rename-1', { name: 'Renamed once' });
    const [renamed, again] = [await rename(), await rename()];
    expect([renamed.status, again.status, again.headers.get('idempotent-replayed')]).toEqual([200, 200, 'true']);
    expect(await auditEvents(boss, 'settings.updated')).toHaveLength(1);

    const key = (await json(await createKey(boss, 'to-revoke', 'to-revoke'))).result;
    const revoke = () => keyed(boss, 'DELETE', `/portal/api-keys/${key.id}`, 'revoke-1');
    const [revoked, revokedAgain] = [await revoke(), await revoke()];
    expect([revoked.status, revokedAgain.status]).toEqual([200, 200]);
    expect(await revokedAgain.text()).toBe(await revoked.text());
    expect(await auditEvents(boss, 'api_key.revoked')).toHaveLength(1);
  });

  it('when a keyed write is refused, then the refusal is kept and replayed to the retry', async () => {
    const again = () =>
      keyed(admin, 'POST', '/portal/users', 'refused-1', { email: 'keyed@a.test', role: 'DEVELOPER' });
    const [refused, retried] = [await again(), await again()];
    expect([refused.status, retried.status]).toEqual([409, 409]);
    expect(await json(refused)).toEqual(envelope('USER.ALREADY_EXISTS', 409));
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
  });

  it('when the Idempotency-Key is malformed, then 400 names the header and nothing is made', async () => {
    const res = await createKey(admin, 'k'.repeat(256), 'malformed');
    expect(res.status).toBe(400);
    expect((await json(res)).error.data.issues[0].path).toBe('headers.Idempotency-Key');
    expect(await keysNamed(admin, 'malformed')).toEqual([]);
  });

  it('when an answer is kept, then the table holds neither the Idempotency-Key nor the secret in the clear', async () => {
    const created = (await json(await createKey(admin, 'sealed-key-1', 'sealed'))).result;
    const { rows } = await sql<{
      key: string;
      status: number;
      body: Buffer;
    }>`SELECT key, status, body FROM idempotency_keys WHERE partner_id = ${partnerId}`.execute(p.gateway.deps.db);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.map((r) => r.key)).not.toContain('sealed-key-1');
    for (const row of rows) expect(row.body.includes(Buffer.from(created.secret))).toBe(false);
  });

  it('when signing out carries a key, then it is not kept: a later sign-out with that key ends its own session', async () => {
    for (let i = 0; i < 2; i++) {
      const who = await p.signIn(partnerId, 'leaving@a.test', 'DEVELOPER');
      const out = await keyed(who, 'DELETE', '/portal/auth/session', 'sign-out-1');
      expect(out.status).toBe(204);
      expect(out.headers.get('idempotent-replayed')).toBeNull();
      expect((await p.call(who, 'GET', '/portal/auth/session')).status).toBe(401);
    }
  });
});
