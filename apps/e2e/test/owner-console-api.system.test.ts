// The owner console's API end to end: a customer's users, signed in with a link the partner
// provisioned, read and change their own domains' widget, company, scan, install and records, and
// their account's users, through the real gateway, domains-svc and consent-svc; any other domain is
// 404, roles below a route's are 403, and nothing but an owner session reaches these routes.
import { randomBytes, randomUUID } from 'node:crypto';
import {
  accessUserSchema,
  cookieDeclarationSchema,
  installCheckSchema,
  instanceCompanySchema,
  instancePropertySchema,
  scanReportSchema,
} from '@platform/contracts';
import { startWebhookReceiver, type WebhookReceiver } from '@platform/launcher';
import { waitFor } from '@platform/testing';
import { ownerSession, sendReceipt } from './support/owner-session';
import { LOCAL_SITES, writeLocalSite } from './support/shared-platform';
import { envelope, sharedSystem, type Partner, type System } from './support/system';

describe("the owner console's API (owner sessions through the gateway)", () => {
  let sys: System;
  let partner: Partner;
  let other: Partner;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    sys = await sharedSystem();
    [partner, other] = await Promise.all([sys.partner(), sys.partner()]);
  });
  afterAll(async () => {
    await sys?.close();
    await receiver?.close();
  });

  /** A domain of its own customer (company_setup), on the shared platform's local web. */
  const createDomain = async (who: Partner = partner) => {
    const hostname = `shop-${randomUUID().slice(0, 8)}.${LOCAL_SITES}`;
    const res = await sys.arrange(who, 'POST', '/portal/domains', {
      domain: hostname,
      company_name: `Shop ${hostname}`,
      account_email: `owner@${hostname}`,
      company_setup: true,
      country: 'SE',
    });
    const d = res.body.result as { id: string; instance_property_id: string; privacy_widget: string };
    return { id: d.id, hostname, propertyId: d.instance_property_id, snippet: d.privacy_widget };
  };
  type Domain = Awaited<ReturnType<typeof createDomain>>;
  const signIn = (d: Domain, role: 'OWNER' | 'ADMIN' | 'VIEWER', who = partner) =>
    ownerSession(sys, who, d.id, { email: `${role.toLowerCase()}-${randomUUID().slice(0, 6)}@${d.hostname}`, role });
  const at = (d: Pick<Domain, 'id'>, rest: string) => `/portal/owner/domains/${d.id}/${rest}`;

  it("when an OWNER reads and changes the widget's look, then the property comes back changed, property.updated is signed to the partner, the widget shows it and the audit log names the owner", async () => {
    const d = await createDomain();
    const owner = await signIn(d, 'OWNER');
    const path = `/hook-${randomUUID().slice(0, 8)}`;
    await sys.arrange(partner, 'POST', '/portal/webhooks', {
      url: `${receiver.url}${path}`,
      events: ['property.updated'],
    });
    const read = await owner.call('GET', at(d, 'property'));
    expect(instancePropertySchema.strict().parse(read.body.result)).toMatchObject({ id: d.propertyId });
    const key = { 'Idempotency-Key': `owner-put-${d.id}` };
    const change = { primary_color: '#0a7a3b', widget_position: 'BOTTOM_RIGHT' };
    const put = await owner.call('PUT', at(d, 'property'), change, { headers: key });
    expect([put.status, put.body.result]).toEqual([200, expect.objectContaining(change)]);
    const retry = await owner.call('PUT', at(d, 'property'), change, { headers: key });
    expect([retry.status, retry.headers.get('idempotent-replayed'), retry.body]).toEqual([200, 'true', put.body]);

    const [hook] = await waitFor(
      () => {
        const got = receiver.received.filter((r) => r.path === path);
        return got.length > 0 ? got : undefined;
      },
      { timeoutMs: 15_000, what: 'property.updated at the receiver' },
    );
    expect(JSON.parse(hook.body)).toMatchObject({
      event: 'property.updated',
      params: { property_id: d.propertyId, ...change },
    });
    const settings = await sys.call(undefined, 'GET', `/widget/v1/properties/${d.propertyId}/settings`, undefined, {
      origin: `https://${d.hostname}`,
    });
    expect(settings.body.result).toMatchObject(change);

    const company = await owner.call('PUT', at(d, 'company'), {
      name: 'Owner AB',
      address: { city: 'Malmö' },
      dpo: { name: 'Owner DPO', email: 'DPO@Owner.example' },
    });
    expect(instanceCompanySchema.strict().parse(company.body.result)).toMatchObject({
      name: 'Owner AB',
      dpo: { name: 'Owner DPO', email: 'dpo@owner.example' },
    });
    expect((await owner.call('GET', at(d, 'company'))).body.result).toEqual(company.body.result);
    const audit = await (
      await sys.db()
    ).query(
      `SELECT kind, actor_type, actor_id, actor_label, details->'fields' AS fields FROM gateway.audit_events
        WHERE partner_id = $1 AND actor_id = $2 ORDER BY created_at`,
      [partner.id, owner.userId],
    );
    const by = { actor_type: 'OWNER', actor_id: owner.userId, actor_label: owner.email };
    expect(audit.rows).toEqual([
      { kind: 'property.updated', ...by, fields: ['primary_color', 'widget_position'] },
      { kind: 'company.updated', ...by, fields: ['address', 'dpo', 'name'] },
    ]);
  });

  it('when the owner scans, then the report and the cookie declaration follow the scan; the install check reads the home page', async () => {
    const d = await createDomain();
    const admin = await signIn(d, 'ADMIN');
    expect((await admin.call('GET', at(d, 'scan'))).status).toBe(404);
    const none = cookieDeclarationSchema
      .strict()
      .parse((await admin.call('GET', at(d, 'cookie-declaration'))).body.result);
    expect(none).toMatchObject({ domain_id: d.id, hostname: d.hostname, scanned_at: null });
    expect(none.categories.map((c) => [c.category, c.cookies])).toEqual(
      ['necessary', 'functional', 'analytics', 'marketing', 'unclassified'].map((c) => [c, []]),
    );

    await writeLocalSite(d.hostname, `<html><head>${d.snippet}</head><body>Shop</body></html>`, [
      '_ga=GA1.1.1; Path=/; Max-Age=63072000',
      'basket=1; Path=/',
    ]);
    const started = await admin.call('POST', at(d, 'scan'));
    expect([started.status, scanReportSchema.parse(started.body.result).status]).toEqual([202, 'queued']);
    const report = await waitFor(
      async () => {
        const r = (await admin.call('GET', at(d, 'scan'))).body.result;
        return r.status === 'completed' || r.status === 'failed' ? r : undefined;
      },
      { timeoutMs: 20_000, what: 'the scan to end' },
    );
    expect(report.status).toBe('completed');
    const declaration = (await admin.call('GET', at(d, 'cookie-declaration'))).body.result;
    expect(declaration.scanned_at).toBe(report.finished_at);
    const cookies = Object.fromEntries(
      declaration.categories.map((c: { category: string; cookies: { name: string; duration: string }[] }) => [
        c.category,
        c.cookies.map((k) => `${k.name} ${k.duration}`),
      ]),
    );
    expect(cookies).toMatchObject({ analytics: ['_ga 2 years'], unclassified: ['basket Session'] });

    const installed = installCheckSchema.strict().parse((await admin.call('GET', at(d, 'install-check'))).body.result);
    expect(installed).toMatchObject({
      domain_id: d.id,
      url: `http://${d.hostname}/`,
      status: 'INSTALLED',
      first_in_head: true,
    });
    await writeLocalSite(d.hostname, `<html><head><script>window.dataLayer=[]</script>${d.snippet}</head></html>`);
    expect((await admin.call('GET', at(d, 'install-check'))).body.result.status).toBe('NOT_FIRST_IN_HEAD');
    await writeLocalSite(d.hostname, '<html><head><title>Shop</title></head><body>No widget</body></html>');
    expect((await admin.call('GET', at(d, 'install-check'))).body.result).toMatchObject({
      status: 'NOT_FOUND',
      snippet_found: false,
    });
  });

  it('when visitors answered, then the owner lists the records and exports them as CSV with formula cells neutralised', async () => {
    const d = await createDomain();
    const viewer = await signIn(d, 'VIEWER');
    const formula = `-cmd${randomBytes(12).toString('hex')}`;
    await sendReceipt(sys, d, { subject: formula, analytics: false });
    const newest = await sendReceipt(sys, d, { subject: randomBytes(16).toString('hex'), analytics: true });

    const list = await viewer.call('GET', `${at(d, 'records')}?limit=1`);
    expect([list.status, list.body.meta, list.body.result]).toEqual([200, { current_page: 1, next_page: 2 }, [newest]]);
    const allowed = await viewer.call('GET', `${at(d, 'records')}?receipt_status=ALLOWED`);
    expect(allowed.body.result).toEqual([]);

    const file = await viewer.call('GET', at(d, 'records/export'));
    expect([file.status, file.headers.get('content-type')]).toEqual([200, 'text/csv; charset=utf-8']);
    expect(file.headers.get('content-disposition')).toBe(`attachment; filename="consent-records-${d.hostname}.csv"`);
    const lines = file.text.split('\r\n');
    expect(lines[0]).toBe(
      'receipt_id,created_at,receipt_type,receipt_status,granted,denied,gpc,country,region,jurisdiction,property_id,subject,consent_revision,widget_version',
    );
    // Oldest first (the export streams a range from its start).
    expect(lines).toHaveLength(4);
    expect(lines[1]).toContain(`,"'${formula}",r1,1.0.0`);
    expect(lines[2]).toContain(
      `${newest.receipt_id},${newest.created_at},COOKIE_CONSENT,PARTIAL,necessary functional analytics,marketing,false,SE,`,
    );
  });

  it('when a VIEWER writes, then 403 naming the role; reads answer', async () => {
    const d = await createDomain();
    const viewer = await signIn(d, 'VIEWER');
    for (const path of ['property', 'company', 'scan', 'install-check', 'cookie-declaration', 'records'])
      expect([path, (await viewer.call('GET', at(d, path))).status]).toEqual([path, path === 'scan' ? 404 : 200]);
    expect((await viewer.call('GET', '/portal/owner/users')).status).toBe(200);
    for (const [method, path, body] of [
      ['PUT', at(d, 'property'), { primary_color: '#000000' }],
      ['PUT', at(d, 'company'), { name: 'No' }],
      ['POST', at(d, 'scan'), undefined],
      ['POST', '/portal/owner/users', { email: 'x@shop.test', role: 'VIEWER' }],
      ['PATCH', `/portal/owner/users/${viewer.userId}`, { role: 'ADMIN' }],
      ['DELETE', `/portal/owner/users/${viewer.userId}`, undefined],
    ] as const) {
      const res = await viewer.call(method, path, body);
      expect([method, path, res.status, res.body]).toEqual([method, path, 403, envelope('AUTH.FORBIDDEN', 403)]);
      expect(res.body.error.data).toEqual({ required: 'ADMIN' });
    }
  });

  it("when another customer's, another partner's or no domain is named, then 404; no session, a partner key or no CSRF token is refused", async () => {
    const mine = await createDomain();
    const sibling = await createDomain();
    const theirs = await createDomain(other);
    const owner = await signIn(mine, 'OWNER');
    for (const d of [sibling, theirs, { id: randomUUID() }, { id: 'not-a-domain' }])
      for (const path of [
        'property',
        'company',
        'scan',
        'install-check',
        'cookie-declaration',
        'records',
        'records/export',
      ]) {
        const res = await owner.call('GET', at(d, path));
        expect([path, res.status, res.body]).toEqual([path, 404, envelope('RESOURCE.NOT_FOUND', 404)]);
      }
    expect((await owner.call('PUT', at(sibling, 'property'), { primary_color: '#000000' })).status).toBe(404);
    expect((await owner.call('POST', at(theirs, 'scan'))).status).toBe(404);

    const anonymous = await sys.call(undefined, 'GET', at(mine, 'property'));
    expect([anonymous.status, anonymous.body]).toEqual([401, envelope('AUTH.SESSION_REQUIRED', 401)]);
    for (const [method, path] of [
      ['GET', at(mine, 'property')],
      ['PUT', at(mine, 'property')],
      ['GET', '/portal/owner/users'],
    ]) {
      const keyed = await sys.call(partner, method, path, method === 'PUT' ? { primary_color: '#000000' } : undefined);
      expect([method, path, keyed.status, keyed.body]).toEqual([
        method,
        path,
        401,
        envelope('AUTH.SESSION_REQUIRED', 401),
      ]);
    }
    const noCsrf = await owner.call('PUT', at(mine, 'property'), { primary_color: '#000000' }, { csrf: false });
    expect([noCsrf.status, noCsrf.body]).toEqual([403, envelope('AUTH.CSRF', 403)]);
  });

  it("when the account's users are managed, then only an OWNER touches OWNERs and the last OWNER stays (409), in the console and by the partner", async () => {
    const d = await createDomain();
    const owner = await signIn(d, 'OWNER');
    const admin = await signIn(d, 'ADMIN');
    const users = await owner.call('GET', '/portal/owner/users?limit=10');
    expect(users.body.result.map((u: unknown) => accessUserSchema.strict().parse(u).email)).toEqual([
      owner.email,
      admin.email,
    ]);

    const self = await owner.call('PATCH', `/portal/owner/users/${owner.userId}`, { role: 'ADMIN' });
    expect([self.status, self.body]).toEqual([409, envelope('ACCESS_USER.LAST_OWNER', 409)]);
    expect((await owner.call('DELETE', `/portal/owner/users/${owner.userId}`)).status).toBe(409);
    const byPartner = await sys.call(
      partner,
      'PATCH',
      `/portal/instance/access/users/${owner.userId}?domain_id=${d.id}`,
      { access: false },
    );
    expect([byPartner.status, byPartner.body]).toEqual([409, envelope('ACCESS_USER.LAST_OWNER', 409)]);

    const promote = await admin.call('PATCH', `/portal/owner/users/${admin.userId}`, { role: 'OWNER' });
    expect([promote.status, promote.body]).toEqual([403, envelope('AUTH.FORBIDDEN', 403)]);
    expect((await admin.call('POST', '/portal/owner/users', { email: `o2@${d.hostname}`, role: 'OWNER' })).status).toBe(
      403,
    );
    const invited = await admin.call('POST', '/portal/owner/users', { email: `v2@${d.hostname}`, role: 'VIEWER' });
    expect([invited.status, invited.body.result.role]).toEqual([201, 'VIEWER']);
    expect((await admin.call('DELETE', `/portal/owner/users/${invited.body.result.id}`)).body).toEqual({
      result: { deleted: true },
    });

    expect((await owner.call('PATCH', `/portal/owner/users/${admin.userId}`, { role: 'OWNER' })).body.result.role).toBe(
      'OWNER',
    );
    expect(
      (await owner.call('PATCH', `/portal/owner/users/${owner.userId}`, { role: 'VIEWER' })).body.result.role,
    ).toBe('VIEWER');
    // Now a VIEWER, the former owner may only read.
    expect((await owner.call('PUT', at(d, 'property'), { primary_color: '#000000' })).status).toBe(403);
    const kinds = await (
      await sys.db()
    ).query(`SELECT kind FROM gateway.audit_events WHERE actor_type = 'OWNER' AND actor_id = $1 ORDER BY created_at`, [
      admin.userId,
    ]);
    expect(kinds.rows.map((r: { kind: string }) => r.kind)).toEqual(['access_user.invited', 'access_user.removed']);
  });
});
