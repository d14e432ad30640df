import { envelope, waitFor } from '@platform/testing';
import { bearer, json, startGateway } from './support/harness';
import { IdentityRepository } from '../src/identity/identity.repository';
import { PORTAL_TEST_ROUTES, signedInFrom, startPortalSuite, tokenOf, type PortalSuite } from './support/portal';

describe('portal sign-in and sessions through the gateway', () => {
  let p: PortalSuite;
  let partnerId: string;
  let otherPartnerId: string;

  beforeAll(async () => {
    p = await startPortalSuite({ SIGN_IN_LINKS_PER_EMAIL: '3', SIGN_IN_LINKS_PER_CLIENT: '5' });
    partnerId = await p.suite.partner();
    otherPartnerId = await p.suite.partner();
    // Every partner keeps an administrator, so tests may change the other users freely.
    await p.invite(partnerId, 'root@a.test', 'ADMINISTRATOR');
  });
  afterEach(() => p.resetClock());
  afterAll(async () => {
    await p?.close();
  });

  const askForLink = (email: string, client: Record<string, string>) =>
    fetch(`${p.gateway.url}/portal/auth/sign-in-links`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...client },
      body: JSON.stringify({ email }),
    });

  const linkMailTo = (to: string) => p.smtp.waitForMessage((m) => m.to.includes(to));

  it('when a user asks for a sign-in link, then 202 and an e-mail with a link that signs in once', async () => {
    await p.invite(partnerId, 'link@a.test', 'DEVELOPER');
    const asked = await askForLink('Link@A.test', p.client());
    expect(asked.status).toBe(202);
    expect(await json(asked)).toEqual({ result: { sent: true } });
    const mail = await waitFor(() =>
      p.smtp.messages.find((m) => m.to.includes('link@a.test') && m.subject.startsWith('Your sign-in link')),
    );
    const link = /http:\/\/127\.0\.0\.1:8080\/app\/sign-in#token=[A-Za-z0-9_-]+/.exec(mail.decoded)?.[0] ?? '';
    expect(link).not.toBe('');
    const first = await p.redeem(tokenOf(link));
    expect(first.status).toBe(201);
    const session = await signedInFrom(first);
    expect(session.session).toEqual({
      stage: 'ACTIVE',
      user: { id: expect.any(String), email: 'link@a.test', name: null, role: 'DEVELOPER', totp_enabled: false },
      partner: { id: partnerId, name: expect.any(String), totp_required: false },
      permissions: expect.arrayContaining(['domains:read', 'api_keys:write']),
      csrf_token: expect.any(String),
    });
    const again = await p.redeem(tokenOf(link));
    expect(again.status).toBe(401);
    expect(await json(again)).toEqual(envelope('AUTH.SIGN_IN_LINK', 401));
  });

  it('when an unknown address asks for a link, then the same 202 answer and no e-mail', async () => {
    const client = p.client();
    const unknown = await askForLink('nobody@a.test', client);
    await p.invite(partnerId, 'known@a.test', 'DEVELOPER');
    const known = await askForLink('known@a.test', client);
    expect([unknown.status, known.status]).toEqual([202, 202]);
    expect(await json(unknown)).toEqual(await json(known));
    await waitFor(() => p.smtp.messages.find((m) => m.to.includes('known@a.test') && m.subject.startsWith('Your')));
    expect(p.smtp.messages.some((m) => m.to.includes('nobody@a.test'))).toBe(false);
  });

  it('when a link is redeemed after 15 minutes, then 401 AUTH.SIGN_IN_LINK', async () => {
    const { token } = await p.invite(partnerId, 'late@a.test', 'DEVELOPER');
    p.advance(15 * 60_000 + 1_000);
    const res = await p.redeem(token);
    expect(res.status).toBe(401);
    expect(await json(res)).toEqual(envelope('AUTH.SIGN_IN_LINK', 401));
  });

  it('when one address asks for too many links, then 429 RATE.LIMITED with Retry-After, known or not', async () => {
    for (const email of ['flood@a.test', 'flood-unknown@a.test']) {
      for (let i = 0; i < 3; i++) expect((await askForLink(email, p.client())).status).toBe(202);
      const refused = await askForLink(email, p.client());
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await json(refused)).error.code).toBe('RATE.LIMITED');
    }
  });

  it('when one client address asks for too many links, then 429 RATE.LIMITED', async () => {
    const client = p.client();
    for (let i = 0; i < 5; i++) expect((await askForLink(`spread-${i}@a.test`, client)).status).toBe(202);
    const refused = await askForLink('spread-9@a.test', client);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  it('when a session is created, then the cookie is HttpOnly, SameSite=Lax, Path=/ (no Secure under NODE_ENV=test)', async () => {
    const who = await p.signIn(partnerId, 'cookie@a.test', 'DEVELOPER');
    const attributes = who.setCookie.split(';').map((a) => a.trim().toLowerCase());
    expect(attributes[0]).toMatch(/^pp_session=[a-z0-9_-]{40,}$/);
    expect(attributes).toEqual(expect.arrayContaining(['httponly', 'samesite=lax', 'path=/']));
    expect(attributes).not.toContain('secure');
  });

  it('when the gateway runs in production, then the session cookie is Secure', async () => {
    const production = await startGateway({ ...p.suite.env, NODE_ENV: 'production' }, PORTAL_TEST_ROUTES);
    try {
      const { token } = await p.invite(partnerId, 'secure@a.test', 'DEVELOPER');
      const res = await fetch(`${production.url}/portal/auth/sessions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token }),
      });
      expect(res.status).toBe(201);
      expect(res.headers.get('set-cookie')).toMatch(/; Secure/);
    } finally {
      await production.close();
    }
  });

  it('when GET /portal/auth/session has no valid cookie, then 401 AUTH.SESSION_REQUIRED', async () => {
    const none = await fetch(`${p.gateway.url}/portal/auth/session`);
    expect(none.status).toBe(401);
    expect(await json(none)).toEqual(envelope('AUTH.SESSION_REQUIRED', 401));
    const forged = await fetch(`${p.gateway.url}/portal/auth/session`, {
      headers: { cookie: `pp_session=${'x'.repeat(43)}` },
    });
    expect(forged.status).toBe(401);
  });

  it('when a cookie-authenticated write has no X-CSRF-Token, then 403 AUTH.CSRF; with it the call reaches the service as the user', async () => {
    const who = await p.signIn(partnerId, 'csrf@a.test', 'DEVELOPER');
    const refused = await p.call(who, 'POST', '/portal/things', { name: 'x' }, { csrf: false });
    expect(refused.status).toBe(403);
    expect(await json(refused)).toEqual(envelope('AUTH.CSRF', 403));
    const wrong = await fetch(`${p.gateway.url}/portal/things`, {
      method: 'POST',
      headers: { cookie: who.cookie, 'x-csrf-token': 'not-it', 'content-type': 'application/json' },
      body: '{"name":"x"}',
    });
    expect(wrong.status).toBe(403);
    const ok = await p.call(who, 'POST', '/portal/things', { name: 'x' });
    expect(ok.status).toBe(201);
    const { caller } = (await json(ok)).result;
    expect(caller).toEqual(
      expect.objectContaining({
        partnerId,
        keyId: `user:${who.userId}`,
        user: { id: who.userId, email: 'csrf@a.test' },
      }),
    );
    // Reads need no CSRF token.
    expect((await p.call(who, 'GET', '/portal/things')).status).toBe(200);
  });

  it('when the user signs out, then the session ends and the cookie is cleared', async () => {
    const who = await p.signIn(partnerId, 'out@a.test', 'DEVELOPER');
    const out = await p.call(who, 'DELETE', '/portal/auth/session');
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(/^pp_session=; .*Max-Age=0/);
    const after = await p.call(who, 'GET', '/portal/auth/session');
    expect(after.status).toBe(401);
    expect((await p.call(who, 'GET', '/portal/things')).status).toBe(401);
  });

  it('when a session is idle longer than SESSION_IDLE_TIMEOUT_MS, then it has ended', async () => {
    const who = await p.signIn(partnerId, 'idle@a.test', 'DEVELOPER');
    expect((await p.call(who, 'GET', '/portal/auth/session')).status).toBe(200);
    p.advance(2 * 3_600_000 + 1_000);
    expect((await p.call(who, 'GET', '/portal/auth/session')).status).toBe(401);
  });

  it('when a session is used within each idle timeout, then it stays alive past the first one; then idle, it ends', async () => {
    const who = await p.signIn(partnerId, 'busy@a.test', 'DEVELOPER');
    for (let i = 0; i < 3; i++) {
      p.advance(3_600_000 + 30 * 60_000);
      expect((await p.call(who, 'GET', '/portal/things')).status).toBe(200);
    }
    p.advance(2 * 3_600_000 + 1_000);
    expect((await p.call(who, 'GET', '/portal/things')).status).toBe(401);
  });

  it("when an administrator changes a user's role, deactivates or removes them, then that user's session ends at once", async () => {
    const adminUser = await p.signIn(partnerId, 'boss@a.test', 'ADMINISTRATOR');
    for (const change of [{ role: 'ACCOUNT_MANAGER' }, { active: false }, 'remove'] as const) {
      const who = await p.signIn(partnerId, `changed-${JSON.stringify(change).length}@a.test`, 'DEVELOPER');
      expect((await p.call(who, 'GET', '/portal/things')).status).toBe(200);
      const res =
        change === 'remove'
          ? await p.call(adminUser, 'DELETE', `/portal/users/${who.userId}`)
          : await p.call(adminUser, 'PATCH', `/portal/users/${who.userId}`, change);
      expect(res.status).toBe(200);
      if (change === 'remove') expect(await json(res)).toEqual({ result: { deleted: true } });
      const after = await p.call(who, 'GET', '/portal/things');
      expect(after.status).toBe(401);
      expect(await json(after)).toEqual(envelope('AUTH.SESSION_REQUIRED', 401));
    }
  });

  it('when a DEVELOPER deletes a domain or lists users, then 403; an ADMINISTRATOR may, and the delete is audited', async () => {
    const dev = await p.signIn(partnerId, 'dev@a.test', 'DEVELOPER');
    const del = await p.call(dev, 'DELETE', '/portal/things/t-1');
    expect(del.status).toBe(403);
    expect((await json(del)).error).toEqual(
      expect.objectContaining({ code: 'AUTH.FORBIDDEN', data: { required: 'domains:delete' } }),
    );
    expect((await p.call(dev, 'GET', '/portal/users')).status).toBe(403);
    const boss = await p.signIn(partnerId, 'boss2@a.test', 'ADMINISTRATOR');
    expect((await p.call(boss, 'DELETE', '/portal/things/t-1')).status).toBe(200);
    const users = await p.call(boss, 'GET', '/portal/users?limit=100');
    expect(users.status).toBe(200);
    expect((await json(users)).result.map((u: { email: string }) => u.email)).toContain('dev@a.test');
    const event = await waitFor(async () => {
      const res = await p.call(boss, 'GET', '/portal/audit-events?kind=domain.deleted');
      return (await json(res)).result[0];
    });
    expect(event).toEqual(
      expect.objectContaining({
        kind: 'domain.deleted',
        actor: { type: 'USER', id: boss.userId, label: 'boss2@a.test' },
        target: { type: 'domain', id: 't-1' },
      }),
    );
  });

  it('when an API key calls a user-only route, then 403 AUTH.FORBIDDEN', async () => {
    const { key } = await p.suite.key(partnerId);
    for (const path of ['/portal/users', '/portal/api-keys', '/portal/audit-events', '/portal/settings']) {
      const res = await fetch(`${p.gateway.url}${path}`, { headers: bearer(key) });
      expect(res.status).toBe(403);
      expect((await json(res)).error.code).toBe('AUTH.FORBIDDEN');
    }
  });

  it("when a user names another partner's user or key, then 404", async () => {
    const mine = await p.signIn(partnerId, 'mine@a.test', 'ADMINISTRATOR');
    const theirs = await p.invite(otherPartnerId, 'theirs@b.test', 'ADMINISTRATOR');
    const theirKey = await p.suite.key(otherPartnerId);
    for (const [method, path, body] of [
      ['GET', `/portal/users/${theirs.userId}`],
      ['PATCH', `/portal/users/${theirs.userId}`, { role: 'DEVELOPER' }],
      ['DELETE', `/portal/users/${theirs.userId}`],
      ['POST', `/portal/users/${theirs.userId}/invitations`],
      ['DELETE', `/portal/api-keys/${theirKey.id}`],
      ['POST', `/portal/api-keys/${theirKey.id}/roll`, { overlap_hours: 0 }],
      ['GET', '/portal/users/not-a-uuid'],
    ] as const) {
      const res = await p.call(mine, method, path, body);
      expect([path, res.status]).toEqual([path, 404]);
      expect((await json(res)).error.code).toBe('RESOURCE.NOT_FOUND');
    }
    // The key still works: nothing was done to it.
    expect((await fetch(`${p.gateway.url}/portal/things`, { headers: bearer(theirKey.key) })).status).toBe(200);
  });

  it('when an administrator invites a user, then 201, an invitation e-mail; the same address again is 409', async () => {
    const boss = await p.signIn(partnerId, 'inviter@a.test', 'ADMINISTRATOR');
    const res = await p.call(boss, 'POST', '/portal/users', {
      email: 'New@A.test',
      name: 'New One',
      role: 'DEVELOPER',
    });
    expect(res.status).toBe(201);
    expect((await json(res)).result).toEqual(
      expect.objectContaining({ email: 'new@a.test', name: 'New One', role: 'DEVELOPER', status: 'INVITED' }),
    );
    const mail = await linkMailTo('new@a.test');
    expect(mail.subject).toMatch(/invited/);
    const again = await p.call(boss, 'POST', '/portal/users', { email: 'new@a.test', role: 'DEVELOPER' });
    expect(again.status).toBe(409);
    expect((await json(again)).error.code).toBe('USER.ALREADY_EXISTS');
    const unstorable = await p.call(boss, 'POST', '/portal/users', {
      email: 'nul@a.test',
      name: 'a\u0000b',
      role: 'DEVELOPER',
    });
    expect(unstorable.status).toBe(400);
    expect((await json(unstorable)).error.data.issues[0].path).toBe('body.name');
    const malformed = await fetch(`${p.gateway.url}/portal/users`, {
      method: 'POST',
      headers: { cookie: boss.cookie, 'x-csrf-token': boss.csrf, 'content-type': 'application/json' },
      body: '{"email":',
    });
    expect(malformed.status).toBe(400);
    expect((await json(malformed)).error.code).toBe('VALIDATION.MALFORMED_JSON');
    const bad = await p.call(boss, 'POST', '/portal/users', { email: 'nope', role: 'KING' });
    expect(bad.status).toBe(400);
    expect((await json(bad)).error.data.issues.map((i: { path: string }) => i.path).sort()).toEqual([
      'body.email',
      'body.role',
    ]);
  });

  it('when the last active administrator would be demoted, deactivated or removed, then 409', async () => {
    const solo = await p.suite.partner();
    const only = await p.signIn(solo, 'only@c.test', 'ADMINISTRATOR');
    for (const [method, body] of [
      ['PATCH', { role: 'DEVELOPER' }],
      ['PATCH', { active: false }],
      ['DELETE', undefined],
    ] as const) {
      const res = await p.call(only, method, `/portal/users/${only.userId}`, body);
      expect(res.status).toBe(409);
      expect((await json(res)).error.code).toBe('USER.LAST_ADMINISTRATOR');
    }
  });

  it('when /openapi.json is read, then the sign-in, team and key routes are there, user-only ones marked', async () => {
    const doc = await json(await fetch(`${p.gateway.url}/openapi.json`));
    expect(doc.paths['/portal/auth/sign-in-links'].post.security).toEqual([]);
    expect(doc.paths['/portal/users'].get).toEqual(
      expect.objectContaining({ 'x-user-only': true, 'x-permission': 'users:read', security: [{ sessionCookie: [] }] }),
    );
    expect(doc.paths['/portal/api-keys/{keyId}/roll'].post['x-user-only']).toBe(true);
    expect(doc.paths['/portal/things/{thingId}'].delete['x-user-permission']).toBe('domains:delete');
    expect(doc.components.securitySchemes.sessionCookie).toEqual(
      expect.objectContaining({ type: 'apiKey', in: 'cookie', name: 'pp_session' }),
    );
  });

  it('when sessions have ended, then the hourly prune deletes them and keeps live ones', async () => {
    const ended = await p.signIn(partnerId, 'prune-old@a.test', 'DEVELOPER');
    const live = await p.signIn(partnerId, 'prune-new@a.test', 'DEVELOPER');
    p.advance(90 * 60_000);
    expect((await p.call(live, 'GET', '/portal/auth/session')).status).toBe(200);
    p.advance(90 * 60_000);
    const repo = new IdentityRepository(p.gateway.deps.db);
    expect(await repo.pruneEnded(new Date(p.now()), 2 * 3_600_000)).toBeGreaterThan(0);
    const left = await p.gateway.deps.db
      .selectFrom('sessions')
      .select('user_id')
      .where('user_id', 'in', [ended.userId, live.userId])
      .execute();
    expect(left).toEqual([{ user_id: live.userId }]);
  });

  it('when a client keeps sending cookies that name no session, then past AUTH_FAILURES_PER_MINUTE it gets 429', async () => {
    const strict = await startGateway({ ...p.suite.env, AUTH_FAILURES_PER_MINUTE: '2' }, PORTAL_TEST_ROUTES);
    try {
      const guess = () =>
        fetch(`${strict.url}/portal/auth/session`, { headers: { cookie: `pp_session=${newGuess()}` } });
      expect([(await guess()).status, (await guess()).status]).toEqual([401, 401]);
      const refused = await guess();
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    } finally {
      await strict.close();
    }
  });
});

let guesses = 0;
const newGuess = () => `guess${String(++guesses).padStart(40, '0')}`;
