import { createHash, randomUUID } from 'node:crypto';
import { accessUserSchema, ownerSessionSchema } from '@platform/contracts';
import { envelope, sharedSystem, type Partner, type System } from './support/system';

const USERS = '/portal/instance/access/users';
const tokenIn = (link: string) => /\/owner\/sign-in#token=([A-Za-z0-9_-]+)$/.exec(link)?.[1] ?? '';

describe("the customer's access users and the owner console's sign-in (instance:read, instance:write)", () => {
  let sys: System;
  let partner: Partner;
  let other: Partner;
  const partnerName = `Access Partner ${randomUUID().slice(0, 6)}`;

  beforeAll(async () => {
    sys = await sharedSystem();
    [partner, other] = await Promise.all([sys.partner(partnerName), sys.partner()]);
  });
  afterAll(async () => {
    await sys?.close();
  });

  const createDomain = async (who: Partner, extra: Record<string, unknown> = {}) => {
    const hostname = `access-${randomUUID().slice(0, 8)}.example.com`;
    const res = await sys.arrange(who, 'POST', '/portal/domains', {
      domain: hostname,
      company_name: `Access ${hostname}`,
      account_email: `owner@${hostname}`,
      company_setup: true,
      ...extra,
    });
    const d = res.body.result as { id: string; instance_company_id: string };
    return { id: d.id, hostname, companyId: d.instance_company_id };
  };

  /** Redeems a link's token at the owner console's sign-in: the answer and the cookie it sets. */
  const redeem = async (token: string) => {
    const res = await sys.call(undefined, 'POST', '/portal/owner/sessions', { token });
    const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0];
    return { res, cookie };
  };
  const asOwner = (cookie: string, method: string, path: string, headers: Record<string, string> = {}) =>
    sys.call(undefined, method, path, undefined, { cookie, ...headers });

  it('when users are invited, then each gets a branded e-mail with a link, and the list pages by the spec rules', async () => {
    const d = await createDomain(partner);
    const customer = `domain_id=${d.id}`;
    const emails = ['Ada@Shop.test', 'bob@shop.test', 'cy@shop.test'];
    for (const email of emails) {
      const res = await sys.call(partner, 'POST', `${USERS}?${customer}`, { email, role: 'ADMIN', name: 'Ada' });
      expect(res.status).toBe(201);
      expect(accessUserSchema.strict().parse(res.body.result)).toMatchObject({
        email: email.toLowerCase(),
        role: 'ADMIN',
        access: true,
        company_id: d.companyId,
        last_sign_in_at: null,
      });
    }
    const mail = await sys.smtp.waitForMessage(
      (m) => m.to.includes('ada@shop.test') && m.subject.includes(partnerName),
    );
    expect(mail.subject).toBe(`${partnerName}: your account console`);
    expect(mail.decoded).toMatch(/\/owner\/sign-in#token=[A-Za-z0-9_-]{40,}/);

    const first = await sys.call(partner, 'GET', `${USERS}?${customer}&limit=2`);
    expect(first.status).toBe(200);
    expect(first.body.meta).toEqual({ current_page: 1, next_page: 2 });
    expect(first.body.result.map((u: { email: string }) => u.email)).toEqual(['ada@shop.test', 'bob@shop.test']);
    const second = await sys.call(partner, 'GET', `${USERS}?${customer}&limit=2&page=2`);
    expect(second.body.meta).toEqual({ current_page: 2, prev_page: 1 });
    expect(second.body.result.map((u: { email: string }) => u.email)).toEqual(['cy@shop.test']);

    const again = await sys.call(partner, 'POST', `${USERS}?${customer}`, { email: 'ADA@shop.test', role: 'VIEWER' });
    expect([again.status, again.body]).toEqual([409, envelope('ACCESS_USER.ALREADY_EXISTS', 409)]);
    const tooDeep = await sys.call(partner, 'GET', `${USERS}?${customer}&limit=101`);
    expect([tooDeep.status, tooDeep.body]).toEqual([400, envelope('VALIDATION.INVALID', 400)]);
  });

  it('when a user is provisioned twice, then the same user gets a new single-use link each time, which signs in to the owner console', async () => {
    const merchantId = `m-${randomUUID().slice(0, 8)}`;
    const d = await createDomain(partner, { merchant_id: merchantId });
    const path = `${USERS}/provision?merchant_id=${merchantId}`;
    const one = await sys.call(partner, 'POST', path, { email: 'jit@shop.test' });
    expect(one.status).toBe(200);
    expect(one.body.result.user).toMatchObject({ email: 'jit@shop.test', role: 'VIEWER', company_id: d.companyId });
    expect(Date.parse(one.body.result.expires_at) - Date.now()).toBeGreaterThan(14 * 60_000);
    const two = await sys.call(partner, 'POST', path, { email: 'jit@shop.test', role: 'OWNER', name: 'Jit' });
    expect(two.body.result.user).toMatchObject({ id: one.body.result.user.id, role: 'OWNER', name: 'Jit' });
    expect(two.body.result.sign_in_url).not.toBe(one.body.result.sign_in_url);

    const signedIn = await redeem(tokenIn(two.body.result.sign_in_url));
    expect(signedIn.res.status).toBe(201);
    expect(signedIn.cookie).toMatch(/^pp_owner_session=[A-Za-z0-9_-]{40,}$/);
    expect(signedIn.res.headers.get('set-cookie')).toMatch(/HttpOnly; SameSite=Lax; Path=\//);
    const session = ownerSessionSchema.strict().parse(signedIn.res.body.result);
    expect(session).toMatchObject({
      audience: 'OWNER',
      user: { id: one.body.result.user.id, email: 'jit@shop.test', role: 'OWNER', name: 'Jit' },
      partner: { name: partnerName },
      company_id: d.companyId,
      domains: [{ id: d.id, hostname: d.hostname }],
    });
    const who = await asOwner(signedIn.cookie, 'GET', '/portal/owner/session');
    expect([who.status, who.body.result.user.email]).toEqual([200, 'jit@shop.test']);

    // Single use: the redeemed link, and the older one too once used, answer 401.
    const reused = await redeem(tokenIn(two.body.result.sign_in_url));
    expect([reused.res.status, reused.res.body]).toEqual([401, envelope('AUTH.SIGN_IN_LINK', 401)]);
    expect((await redeem(tokenIn(one.body.result.sign_in_url))).res.status).toBe(201);
    expect((await redeem(tokenIn(one.body.result.sign_in_url))).res.status).toBe(401);

    // A link is the owner console's only: the partner portal's sign-in refuses it, untouched.
    const three = await sys.call(partner, 'POST', path, { email: 'jit@shop.test' });
    const token = tokenIn(three.body.result.sign_in_url);
    const atPartner = await sys.call(undefined, 'POST', '/portal/auth/sessions', { token });
    expect([atPartner.status, atPartner.body]).toEqual([401, envelope('AUTH.SIGN_IN_LINK', 401)]);
    expect((await redeem(token)).res.status).toBe(201);

    const out = await asOwner(signedIn.cookie, 'DELETE', '/portal/owner/session', {
      'x-csrf-token': session.csrf_token,
    });
    expect(out.status).toBe(204);
    expect((await asOwner(signedIn.cookie, 'GET', '/portal/owner/session')).status).toBe(401);
  });

  it('when a provision is retried with its Idempotency-Key, then the first answer (the same link) is replayed', async () => {
    const d = await createDomain(partner);
    const path = `${USERS}/provision?domain_id=${d.id}`;
    const headers = { 'Idempotency-Key': `provision-${d.id}` };
    const first = await sys.call(partner, 'POST', path, { email: 'retry@shop.test' }, headers);
    const retry = await sys.call(partner, 'POST', path, { email: 'retry@shop.test' }, headers);
    expect([retry.status, retry.headers.get('idempotent-replayed')]).toEqual([200, 'true']);
    expect(retry.body).toEqual(first.body);
    const other = await sys.call(partner, 'POST', path, { email: 'other@shop.test' }, headers);
    expect([other.status, other.body]).toEqual([409, envelope('IDEMPOTENCY.KEY_REUSED', 409)]);
  });

  it('when a link is past its expiry, then 401 AUTH.SIGN_IN_LINK', async () => {
    const d = await createDomain(partner);
    const res = await sys.call(partner, 'POST', `${USERS}/provision?domain_id=${d.id}`, { email: 'late@shop.test' });
    const token = tokenIn(res.body.result.sign_in_url);
    const db = await sys.db();
    const hash = createHash('sha256').update(token).digest();
    const moved = await db.query(
      `UPDATE gateway.sign_in_tokens SET expires_at = now() - interval '1 second' WHERE token_hash = $1`,
      [hash],
    );
    expect(moved.rowCount).toBe(1);
    const late = await redeem(token);
    expect([late.res.status, late.res.body]).toEqual([401, envelope('AUTH.SIGN_IN_LINK', 401)]);
  });

  it('when an owner session calls partner routes, then it is answered as no session at all', async () => {
    const d = await createDomain(partner);
    const res = await sys.call(partner, 'POST', `${USERS}/provision?domain_id=${d.id}`, { email: 'nosy@shop.test' });
    const { cookie, res: signedIn } = await redeem(tokenIn(res.body.result.sign_in_url));
    const csrf = { 'x-csrf-token': signedIn.body.result.csrf_token };
    for (const [method, path] of [
      ['GET', '/portal/domains'],
      ['GET', `/portal/domains/${d.id}`],
      ['GET', `${USERS}?domain_id=${d.id}`],
      ['GET', '/portal/auth/session'],
      ['POST', `${USERS}/provision?domain_id=${d.id}`],
    ]) {
      const refused = await asOwner(cookie, method, path, csrf);
      expect([path, refused.status]).toEqual([path, 401]);
    }
    // The same token in the partner portal's cookie is no partner session either.
    const asPartnerCookie = await asOwner(cookie.replace('pp_owner_session=', 'pp_session='), 'GET', '/portal/domains');
    expect([asPartnerCookie.status, asPartnerCookie.body]).toEqual([401, envelope('AUTH.SESSION_REQUIRED', 401)]);
  });

  it('when access is turned off or the user removed, then their sessions end at once and get/patch/delete work per user', async () => {
    const d = await createDomain(partner);
    const customer = `domain_id=${d.id}`;
    const made = await sys.call(partner, 'POST', `${USERS}/provision?${customer}`, { email: 'off@shop.test' });
    const id = made.body.result.user.id as string;
    const { cookie } = await redeem(tokenIn(made.body.result.sign_in_url));
    expect((await asOwner(cookie, 'GET', '/portal/owner/session')).status).toBe(200);

    const off = await sys.call(partner, 'PATCH', `${USERS}/${id}?${customer}`, { access: false, role: 'ADMIN' });
    expect([off.status, off.body.result.access, off.body.result.role]).toEqual([200, false, 'ADMIN']);
    expect((await asOwner(cookie, 'GET', '/portal/owner/session')).status).toBe(401);
    const got = await sys.call(partner, 'GET', `${USERS}/${id}?${customer}`);
    expect(got.body.result).toEqual(off.body.result);

    // Provisioning lets the user in again (access back on).
    const back = await sys.call(partner, 'POST', `${USERS}/provision?${customer}`, { email: 'off@shop.test' });
    expect(back.body.result.user.access).toBe(true);
    const again = await redeem(tokenIn(back.body.result.sign_in_url));
    expect(again.res.status).toBe(201);

    const removed = await sys.call(partner, 'DELETE', `${USERS}/${id}?${customer}`);
    expect([removed.status, removed.body]).toEqual([200, { result: { deleted: true } }]);
    expect((await asOwner(again.cookie, 'GET', '/portal/owner/session')).status).toBe(401);
    const gone = await sys.call(partner, 'GET', `${USERS}/${id}?${customer}`);
    expect([gone.status, gone.body]).toEqual([404, envelope('RESOURCE.NOT_FOUND', 404)]);

    const audit = await (
      await sys.db()
    ).query(`SELECT kind FROM gateway.audit_events WHERE partner_id = $1 AND target_id = $2 ORDER BY created_at`, [
      partner.id,
      id,
    ]);
    expect(audit.rows.map((r: { kind: string }) => r.kind)).toEqual([
      'access_user.provisioned',
      'access_user.updated',
      'access_user.provisioned',
      'access_user.removed',
    ]);
  });

  it("when another partner's domain, another customer's user, no customer, a bad body or a read-only key is used, then 404, 404, 400, 400 and 403", async () => {
    const d = await createDomain(partner);
    const sibling = await createDomain(partner);
    const made = await sys.call(partner, 'POST', `${USERS}?domain_id=${d.id}`, {
      email: 'iso@shop.test',
      role: 'VIEWER',
    });
    const id = made.body.result.id as string;

    const foreign = await sys.call(other, 'GET', `${USERS}?domain_id=${d.id}`);
    expect([foreign.status, foreign.body]).toEqual([404, envelope('RESOURCE.NOT_FOUND', 404)]);
    const foreignProvision = await sys.call(other, 'POST', `${USERS}/provision?domain_id=${d.id}`, {
      email: 'x@y.test',
    });
    expect(foreignProvision.status).toBe(404);
    for (const [method, body] of [
      ['GET', undefined],
      ['PATCH', { access: false }],
      ['DELETE', undefined],
    ] as const) {
      const elsewhere = await sys.call(partner, method, `${USERS}/${id}?domain_id=${sibling.id}`, body);
      expect([method, elsewhere.status, elsewhere.body]).toEqual([method, 404, envelope('RESOURCE.NOT_FOUND', 404)]);
    }
    expect((await sys.call(partner, 'GET', `${USERS}/${id}?domain_id=${d.id}`)).body.result.access).toBe(true);

    const none = await sys.call(partner, 'GET', USERS);
    expect([none.status, none.body]).toEqual([400, envelope('VALIDATION.INVALID', 400)]);
    const both = await sys.call(partner, 'GET', `${USERS}?domain_id=${d.id}&merchant_id=m-1`);
    expect(both.status).toBe(400);
    for (const bad of [{ email: 'not-an-address', role: 'VIEWER' }, { email: 'a@b.test', role: 'ADMINISTRATOR' }, {}]) {
      const res = await sys.call(partner, 'POST', `${USERS}?domain_id=${d.id}`, bad);
      expect([res.status, res.body]).toEqual([400, envelope('VALIDATION.INVALID', 400)]);
    }
    const emptyPatch = await sys.call(partner, 'PATCH', `${USERS}/${id}?domain_id=${d.id}`, {});
    expect(emptyPatch.status).toBe(400);

    const { key } = await sys.admin<{ key: string }>(
      'key',
      'create',
      '--partner',
      partner.id,
      '--permissions',
      'instance:read',
    );
    const readOnly = { id: partner.id, key };
    expect((await sys.call(readOnly, 'GET', `${USERS}?domain_id=${d.id}`)).status).toBe(200);
    const denied = await sys.call(readOnly, 'POST', `${USERS}/provision?domain_id=${d.id}`, { email: 'no@shop.test' });
    expect([denied.status, denied.body.error.data]).toEqual([403, { required: 'instance:write' }]);
  });
});
