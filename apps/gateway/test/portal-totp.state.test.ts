import { envelope } from '@platform/testing';
import { json } from './support/harness';
import { signedInFrom, startPortalSuite, type PortalSuite, type SignedIn } from './support/portal';
import { totpCodeAt } from '../src/identity/totp';

describe('portal two-factor sign-in (TOTP) through the gateway', () => {
  let p: PortalSuite;
  let partnerId: string;

  beforeAll(async () => {
    p = await startPortalSuite({ TOTP_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64') });
    partnerId = await p.suite.partner();
    await p.invite(partnerId, 'root@t.test', 'ADMINISTRATOR');
  });
  afterEach(() => p.resetClock());
  afterAll(async () => {
    await p?.close();
  });

  /** Enrols the signed-in user: the secret and the recovery codes. */
  async function enrol(who: SignedIn) {
    const started = await p.call(who, 'POST', '/portal/auth/totp');
    expect(started.status).toBe(201);
    const { secret, otpauth_uri } = (await json(started)).result;
    expect(otpauth_uri).toMatch(/^otpauth:\/\/totp\/.*secret=/);
    const wrong = await p.call(who, 'PUT', '/portal/auth/totp', {
      code: '000000' === totpCodeAt(secret, p.now()) ? '111111' : '000000',
    });
    expect(wrong.status).toBe(401);
    const confirmed = await p.call(who, 'PUT', '/portal/auth/totp', { code: totpCodeAt(secret, p.now()) });
    expect(confirmed.status).toBe(200);
    const codes: string[] = (await json(confirmed)).result.recovery_codes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    return { secret, codes };
  }

  const signInAgain = async (email: string) =>
    signedInFrom(await p.redeem((await p.invite(partnerId, email, 'DEVELOPER')).token));

  it('when a user without TOTP signs in, then the session is ACTIVE at once', async () => {
    const who = await p.signIn(partnerId, 'plain@t.test', 'DEVELOPER');
    expect(who.session.stage).toBe('ACTIVE');
  });

  it('when a user with TOTP signs in, then only a right, unused code completes the session', async () => {
    const first = await p.signIn(partnerId, 'totp@t.test', 'DEVELOPER');
    const { secret } = await enrol(first);
    const who = await signInAgain('totp@t.test');
    expect(who.session).toEqual(
      expect.objectContaining({ stage: 'TOTP_REQUIRED', user: expect.objectContaining({ totp_enabled: true }) }),
    );
    const blocked = await p.call(who, 'GET', '/portal/things');
    expect(blocked.status).toBe(401);
    expect((await json(blocked)).error.code).toBe('AUTH.SESSION_REQUIRED');
    const wrong = await p.call(who, 'POST', '/portal/auth/session/totp', {
      code: '000000' === totpCodeAt(secret, p.now()) ? '111111' : '000000',
    });
    expect(wrong.status).toBe(401);
    expect(await json(wrong)).toEqual(envelope('AUTH.TOTP', 401));
    // The code that confirmed the enrolment is spent: the next one (30 s on) is asked for.
    p.advance(30_000);
    const code = totpCodeAt(secret, p.now());
    const right = await p.call(who, 'POST', '/portal/auth/session/totp', { code });
    expect(right.status).toBe(200);
    expect((await json(right)).result.stage).toBe('ACTIVE');
    expect((await p.call(who, 'GET', '/portal/things')).status).toBe(200);
    // A code works once: replayed on another sign-in it is refused.
    const other = await signInAgain('totp@t.test');
    const replayed = await p.call(other, 'POST', '/portal/auth/session/totp', { code });
    expect(replayed.status).toBe(401);
    expect(await json(replayed)).toEqual(envelope('AUTH.TOTP', 401));
  });

  it('when a recovery code is used, then it completes the sign-in once and never again', async () => {
    const first = await p.signIn(partnerId, 'recover@t.test', 'DEVELOPER');
    const { codes } = await enrol(first);
    const who = await signInAgain('recover@t.test');
    const used = await p.call(who, 'POST', '/portal/auth/session/totp', { recovery_code: codes[3].toUpperCase() });
    expect(used.status).toBe(200);
    const next = await signInAgain('recover@t.test');
    const reused = await p.call(next, 'POST', '/portal/auth/session/totp', { recovery_code: codes[3] });
    expect(reused.status).toBe(401);
    expect((await p.call(next, 'POST', '/portal/auth/session/totp', { recovery_code: codes[4] })).status).toBe(200);
  });

  it('when the partner requires TOTP, then a user without it must enrol before anything else works', async () => {
    const boss = await p.signIn(partnerId, 'boss@t.test', 'ADMINISTRATOR');
    expect((await p.call(boss, 'PATCH', '/portal/settings', { totp_required: true })).status).toBe(200);
    try {
      const who = await signInAgain('newcomer@t.test');
      expect(who.session.stage).toBe('TOTP_ENROLMENT_REQUIRED');
      expect((await p.call(who, 'GET', '/portal/things')).status).toBe(401);
      await enrol(who);
      const session = await p.call(who, 'GET', '/portal/auth/session');
      expect((await json(session)).result).toEqual(
        expect.objectContaining({ stage: 'ACTIVE', partner: expect.objectContaining({ totp_required: true }) }),
      );
      expect((await p.call(who, 'GET', '/portal/things')).status).toBe(200);
    } finally {
      await p.call(boss, 'PATCH', '/portal/settings', { totp_required: false });
    }
  });

  it('when TOTP secrets are stored, then they are encrypted at rest', async () => {
    const { Client } = await import('pg');
    const client = new Client({ connectionString: p.suite.databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ totp_secret: string }>(
        "SELECT totp_secret FROM gateway.users WHERE email = 'totp@t.test'",
      );
      expect(rows[0].totp_secret).toMatch(/^v1\./);
    } finally {
      await client.end();
    }
  });
});
