import { waitFor } from '@platform/testing';
import { bearer, json } from './support/harness';
import { startPortalSuite, type PortalSuite, type SignedIn } from './support/portal';

describe('API keys, audit events and settings in the portal, through the gateway', () => {
  let p: PortalSuite;
  let partnerId: string;
  let admin: SignedIn;

  beforeAll(async () => {
    // Sessions outlive the roll's two hours of overlap the tests move the clock through.
    p = await startPortalSuite({ SESSION_IDLE_TIMEOUT_MS: String(24 * 3_600_000) });
    partnerId = await p.suite.partner();
    admin = await p.signIn(partnerId, 'keys@a.test', 'ADMINISTRATOR');
  });
  afterEach(() => p.resetClock());
  afterAll(async () => {
    await p?.close();
  });

  const things = (key: string) => fetch(`${p.gateway.url}/portal/things`, { headers: bearer(key) });
  const createKey = async (name: string) => {
    const res = await p.call(admin, 'POST', '/portal/api-keys', {
      name,
      permissions: ['domains:read', 'domains:write'],
    });
    expect(res.status).toBe(201);
    return (await json(res)).result;
  };

  it('when a user creates a key, then its secret is answered once, it works, and the list shows who made it and when it was last used', async () => {
    const created = await createKey('ci');
    expect(created).toEqual(
      expect.objectContaining({
        name: 'ci',
        prefix: expect.stringMatching(/^pdm_live_/),
        secret: expect.stringMatching(/^pdm_live_/),
        permissions: ['domains:read', 'domains:write'],
        created_by: { type: 'USER', id: admin.userId, email: 'keys@a.test' },
        last_used_at: null,
        revoked_at: null,
      }),
    );
    expect((await things(created.secret)).status).toBe(200);
    const listed = await waitFor(async () => {
      const res = await p.call(admin, 'GET', '/portal/api-keys?limit=100');
      const key = (await json(res)).result.find((k: { id: string }) => k.id === created.id);
      return key?.last_used_at ? key : undefined;
    });
    expect(listed).not.toHaveProperty('secret');
    expect(Date.parse(listed.last_used_at)).toBeGreaterThan(Date.parse(created.created_at) - 1000);
    const cli = await p.suite.key(partnerId);
    const all = (await json(await p.call(admin, 'GET', '/portal/api-keys?limit=100'))).result;
    expect(all.find((k: { id: string }) => k.id === cli.id).created_by).toEqual({
      type: 'OPERATOR',
      id: null,
      email: null,
    });
  });

  it('when a key is revoked, then its very next request is refused', async () => {
    const created = await createKey('revoke-me');
    expect((await things(created.secret)).status).toBe(200);
    const res = await p.call(admin, 'DELETE', `/portal/api-keys/${created.id}`);
    expect(res.status).toBe(200);
    expect((await json(res)).result.revoked_at).toEqual(expect.any(String));
    expect((await things(created.secret)).status).toBe(401);
  });

  it('when a key is rolled with an overlap, then both work during it and the old one stops after it', async () => {
    const old = await createKey('rolled');
    expect((await things(old.secret)).status).toBe(200);
    const res = await p.call(admin, 'POST', `/portal/api-keys/${old.id}/roll`, { overlap_hours: 2 });
    expect(res.status).toBe(201);
    const rolled = (await json(res)).result;
    expect(rolled).toEqual(expect.objectContaining({ name: 'rolled', secret: expect.any(String) }));
    expect((await things(rolled.secret)).status).toBe(200);
    expect((await things(old.secret)).status).toBe(200);
    p.advance(2 * 3_600_000 - 60_000);
    expect((await things(old.secret)).status).toBe(200);
    p.advance(2 * 60_000);
    expect((await things(old.secret)).status).toBe(401);
    expect((await things(rolled.secret)).status).toBe(200);
    const listed = (await json(await p.call(admin, 'GET', '/portal/api-keys?limit=100'))).result;
    expect(listed.find((k: { id: string }) => k.id === old.id).rolled_to).toBe(rolled.id);
    // A rolled key cannot be rolled again.
    const again = await p.call(admin, 'POST', `/portal/api-keys/${old.id}/roll`, { overlap_hours: 0 });
    expect(again.status).toBe(409);
  });

  it('when a key is rolled with overlap 0, then the old one stops at once; an overlap past 168 hours is refused', async () => {
    const old = await createKey('rolled-now');
    expect((await things(old.secret)).status).toBe(200);
    const tooLong = await p.call(admin, 'POST', `/portal/api-keys/${old.id}/roll`, { overlap_hours: 169 });
    expect(tooLong.status).toBe(400);
    expect((await json(tooLong)).error.data.issues[0].path).toBe('body.overlap_hours');
    const res = await p.call(admin, 'POST', `/portal/api-keys/${old.id}/roll`, { overlap_hours: 0 });
    expect(res.status).toBe(201);
    expect((await things(old.secret)).status).toBe(401);
    expect((await things((await json(res)).result.secret)).status).toBe(200);
  });

  it('when keys and forwarded audited routes are used, then audit events are recorded and filter by kind and actor', async () => {
    const created = await createKey('audited');
    await p.call(admin, 'DELETE', `/portal/api-keys/${created.id}`);
    const byKey = await p.suite.key(partnerId);
    expect(
      (await fetch(`${p.gateway.url}/portal/things/t-9`, { method: 'DELETE', headers: bearer(byKey.key) })).status,
    ).toBe(200);
    const list = async (query: string) =>
      (await json(await p.call(admin, 'GET', `/portal/audit-events?limit=100&${query}`))).result;
    const keyEvent = await waitFor(async () => (await list(`actor_id=${byKey.id}`))[0]);
    expect(keyEvent).toEqual(
      expect.objectContaining({
        kind: 'domain.deleted',
        actor: { type: 'API_KEY', id: byKey.id, label: byKey.prefix },
        target: { type: 'domain', id: 't-9' },
      }),
    );
    const revoked = await list('kind=api_key.revoked');
    expect(revoked.map((e: { target: { id: string } }) => e.target.id)).toContain(created.id);
    expect(revoked.every((e: { kind: string }) => e.kind === 'api_key.revoked')).toBe(true);
    const mine = await list(`actor_id=${admin.userId}&kind=api_key.created`);
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((e: { actor: { id: string } }) => e.actor.id === admin.userId)).toBe(true);
    const bad = await p.call(admin, 'GET', '/portal/audit-events?kind=nope');
    expect(bad.status).toBe(400);
  });

  it("when an administrator changes the partner's settings, then they are answered, carried to services and audited", async () => {
    const before = await p.call(admin, 'GET', '/portal/settings');
    expect((await json(before)).result).toEqual(expect.objectContaining({ id: partnerId, totp_required: false }));
    const res = await p.call(admin, 'PATCH', '/portal/settings', {
      name: 'Renamed Partner',
      default_product: 'PLUS',
      required_fields: ['phone_number'],
    });
    expect(res.status).toBe(200);
    expect((await json(res)).result).toEqual(
      expect.objectContaining({ name: 'Renamed Partner', default_product: 'PLUS', required_fields: ['phone_number'] }),
    );
    const call = await p.call(admin, 'GET', '/portal/things');
    expect((await json(call)).result.caller).toEqual(
      expect.objectContaining({ requiredFields: ['phone_number'], defaults: { product: 'PLUS' } }),
    );
    const events = (await json(await p.call(admin, 'GET', '/portal/audit-events?kind=settings.updated'))).result;
    expect(events[0].details.changes.name).toEqual({ from: expect.any(String), to: 'Renamed Partner' });
    const dev = await p.signIn(partnerId, 'dev-settings@a.test', 'DEVELOPER');
    expect((await p.call(dev, 'GET', '/portal/settings')).status).toBe(200);
    expect((await p.call(dev, 'PATCH', '/portal/settings', { name: 'x' })).status).toBe(403);
  });
});
