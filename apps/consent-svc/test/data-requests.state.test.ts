import { envelope, startSmtpServer, waitFor, type TestSmtpServer } from '@platform/testing';
import { propertyUpdated, startConsent, token, type ConsentTest } from './support';

describe('data subject requests: stored, e-mailed to the company owner, an opt-out also recorded', () => {
  let smtp: TestSmtpServer;
  let c: ConsentTest;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    // No property cache: a changed setting shows on the next request.
    c = await startConsent({ SMTP_URL: smtp.url, MAIL_POLL_MS: '50', LIVE_PROPERTY_CACHE_MS: '0' });
  });
  afterAll(async () => {
    await c?.close();
    await smtp?.close();
  });

  const requestsPath = (propertyId: string) => `/widget/v1/properties/${propertyId}/requests`;

  it("when a visitor asks for access and confirms by the e-mailed link, then the request is stored and the company's owner gets an e-mail naming it and its due date", async () => {
    const p = c.partner();
    const domain = await c.domain(p.id, { owner_email: 'dpo@shop.example.com' });
    const res = await c.widget('POST', requestsPath(domain.property_id), {
      origin: `https://${domain.hostname}`,
      body: {
        type: 'access',
        email: 'visitor@example.net',
        name: 'Vera Visitor',
        message: 'What do you keep about me?',
      },
    });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({
      result: {
        request_id: expect.stringMatching(/^DSR_[0-9a-f]{32}$/),
        status: 'RECEIVED',
        confirm_by: expect.any(String),
      },
    });
    const id = res.body.result.request_id;
    expect(
      await c.db
        .selectFrom('data_requests')
        .select(['id', 'type', 'email', 'name', 'receipt_id'])
        .where('id', '=', id)
        .execute(),
    ).toEqual([{ id, type: 'access', email: 'visitor@example.net', name: 'Vera Visitor', receipt_id: null }]);
    const link = await smtp.waitForMessage(
      (m) => m.to.includes('visitor@example.net') && m.decoded.includes('#token='),
    );
    expect(link.subject).toBe(`Confirm your privacy request to ${domain.hostname}`);
    const token = /#token=([\w-]+)/.exec(link.decoded)![1];
    const confirmed = await c.widget('POST', '/widget/v1/requests/confirmations', { body: { token } });
    expect(confirmed.status).toBe(200);
    const mail = await smtp.waitForMessage((m) => m.decoded.includes(id) && m.to.includes('dpo@shop.example.com'));
    expect(mail.subject).toBe(
      `Data subject request (access) for ${domain.hostname}, due ${String(confirmed.body.result.due_at).slice(0, 10)}`,
    );
    expect(mail.decoded).toContain('visitor@example.net');
  });

  it('when a visitor opts out of sale or sharing, then the request is also a DENIED receipt of that subject the partner can read', async () => {
    const p = c.partner();
    const domain = await c.domain(p.id);
    const subject = token();
    const res = await c.widget('POST', requestsPath(domain.property_id), {
      origin: `https://${domain.hostname}`,
      body: { type: 'opt_out', email: 'v@example.net', subject },
    });
    expect(res.status).toBe(202);
    const [record] = (await p.get(`/portal/instance/company/records?domain_id=${domain.id}`)).body.result;
    expect(record).toMatchObject({
      receipt_status: 'DENIED',
      subject,
      subject_data: { request_id: res.body.result.request_id, request_type: 'opt_out' },
    });
    const stored = await c.db
      .selectFrom('data_requests')
      .select('receipt_id')
      .where('id', '=', res.body.result.request_id)
      .executeTakeFirst();
    expect(stored?.receipt_id).toBe(record.receipt_id);
  });

  it('when a single-line field holds CR, LF or another control character, then 400 VALIDATION.INVALID naming it and nothing is stored', async () => {
    const p = c.partner();
    const domain = await c.domain(p.id);
    const res = await c.widget('POST', requestsPath(domain.property_id), {
      origin: `https://${domain.hostname}`,
      body: { type: 'access', email: 'v@example.net', name: 'Vera\r\nBcc: victim@example.org' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION.INVALID');
    expect(res.body.error.data.issues.map((i: { path: string }) => i.path)).toEqual(['body.name']);
    const tab = await c.widget('POST', requestsPath(domain.property_id), {
      origin: `https://${domain.hostname}`,
      body: { type: 'access', email: 'v@example.net', name: 'Vera\u0007Visitor' },
    });
    expect(tab.status).toBe(400);
    expect(
      await c.db.selectFrom('data_requests').select('id').where('property_id', '=', domain.property_id).execute(),
    ).toEqual([]);
  });

  it('when the property turns its request form off (has_dsar false), then a request is 404 RESOURCE.NOT_FOUND and nothing is stored', async () => {
    const p = c.partner();
    const domain = await c.domain(p.id);
    const path = requestsPath(domain.property_id);
    const ask = () =>
      c.widget('POST', path, {
        origin: `https://${domain.hostname}`,
        body: { type: 'access', email: 'v@example.net' },
      });
    expect((await ask()).status).toBe(202);
    await c.publish(propertyUpdated(p.id, domain, 3, { has_dsar: false }));
    await waitFor(async () => ((await c.property(domain.property_id))?.has_dsar === false ? true : undefined), {
      what: 'the request form turned off',
    });
    expect((await ask()).body).toEqual(envelope('RESOURCE.NOT_FOUND', 404));
    expect(
      await c.db.selectFrom('data_requests').select('id').where('property_id', '=', domain.property_id).execute(),
    ).toHaveLength(1);
  });

  it('when the request comes from another site or is malformed, then 403 or 400 and nothing is stored', async () => {
    const p = c.partner();
    const domain = await c.domain(p.id);
    const path = requestsPath(domain.property_id);
    expect(
      (
        await c.widget('POST', path, {
          origin: 'https://elsewhere.example.org',
          body: { type: 'access', email: 'v@example.net' },
        })
      ).body,
    ).toEqual(envelope('WIDGET.ORIGIN_NOT_ALLOWED', 403));
    const bad = await c.widget('POST', path, {
      origin: `https://${domain.hostname}`,
      body: { type: 'sell-my-data', email: 'not-an-address' },
    });
    expect(bad.body.error.data.issues.map((i: { path: string }) => i.path).sort()).toEqual(['body.email', 'body.type']);
    expect(
      await c.db.selectFrom('data_requests').select('id').where('property_id', '=', domain.property_id).execute(),
    ).toEqual([]);
  });
});
