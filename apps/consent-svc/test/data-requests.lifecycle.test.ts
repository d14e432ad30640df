import { createHash, randomUUID } from 'node:crypto';
import { sql } from '@platform/db';
import { act, envelope } from '@platform/testing';
import { sweepDataRequests } from '../src/data-requests/sweep.job';
import { startConsent, type ConsentTest } from './support';

const BERLIN = '5.9.0.1';
const LOS_ANGELES = '45.48.0.1';
const DAY = 86_400_000;
const LINK = /\/widget\/v1\/requests\/confirm#token=([\w-]+)/;

describe('data subject requests: confirmed by e-mail, due by the law of the place, worked to a close', () => {
  let c: ConsentTest;
  beforeAll(async () => {
    c = await startConsent({ DSAR_PER_CLIENT_PER_HOUR: '1000', DSAR_SWEEP_EVERY_MS: '3600000' });
  });
  afterAll(async () => {
    await c?.close();
  });

  const newDomain = async () => {
    const p = c.partner();
    const owner = `owner-${randomUUID().slice(0, 8)}@shop.example.com`;
    const domain = await c.domain(p.id, { owner_email: owner });
    const token = c.tokenFor(p.id);
    const patch = (id: string, body: unknown, domainId = domain.id) =>
      act(c.t.url, 'PATCH', `/portal/instance/company/requests/${id}?domain_id=${domainId}`, {
        token,
        body,
        headers: { 'idempotency-key': randomUUID() },
      });
    return { p, owner, domain, patch };
  };
  const ask = (d: { property_id: string; hostname: string }, body: Record<string, unknown>, forwardedFor = BERLIN) =>
    c.widget('POST', `/widget/v1/properties/${d.property_id}/requests`, {
      origin: `https://${d.hostname}`,
      forwardedFor,
      body,
    });
  const confirm = (token: string) => c.widget('POST', '/widget/v1/requests/confirmations', { body: { token } });
  const mailsTo = (to: string) =>
    c.db
      .selectFrom('mail_queue')
      .select(['kind', 'subject', 'text_body'])
      .where('to_address', '=', to)
      .orderBy('id')
      .execute();
  const tokenIn = async (to: string) =>
    LINK.exec((await mailsTo(to)).find((m) => m.kind === 'dsar-confirm')!.text_body)![1];
  const events = async (requestId: string) =>
    (
      await sql<{ event: string }>`SELECT message->'payload'->>'event' AS event FROM outbox
        WHERE message->>'aggregate_id' = ${requestId} ORDER BY created_at`.execute(c.db)
    ).rows.map((r) => r.event);
  const row = (id: string) =>
    c.db.selectFrom('data_requests').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('when a visitor sends a request, then only the requester gets one e-mail with a link (its token kept as a hash) and nobody else hears of it until the link is opened', async () => {
    const { owner, domain } = await newDomain();
    const email = `vera-${randomUUID().slice(0, 8)}@example.net`;
    const res = await ask(domain, { type: 'portability', email, name: 'Vera' });
    expect(res.status).toBe(202);
    expect(res.body.result).toEqual({
      request_id: expect.stringMatching(/^DSR_[0-9a-f]{32}$/),
      status: 'RECEIVED',
      confirm_by: expect.any(String),
    });
    const id = res.body.result.request_id;
    expect((await mailsTo(email)).map((m) => m.kind)).toEqual(['dsar-confirm']);
    expect(await mailsTo(owner)).toEqual([]);
    const token = await tokenIn(email);
    const stored = await row(id);
    expect(stored.status).toBe('RECEIVED');
    expect(stored.token_hash).toEqual(createHash('sha256').update(token).digest());
    expect(JSON.stringify(stored)).not.toContain(token);
    expect(stored.client_hash).not.toBeNull();
    expect(JSON.stringify(stored)).not.toContain(BERLIN);
    expect(await events(id)).toEqual([]);

    const confirmed = await confirm(token);
    expect(confirmed.status).toBe(200);
    const due = new Date(confirmed.body.result.due_at).getTime();
    const verifiedAt = (await row(id)).verified_at!.getTime();
    expect(due - verifiedAt).toBe(30 * DAY); // Berlin: the GDPR's month
    expect(confirmed.body.result).toMatchObject({
      request_id: id,
      status: 'VERIFIED',
      type: 'portability',
      hostname: domain.hostname,
    });
    expect((await mailsTo(owner)).map((m) => m.kind)).toEqual(['dsar']);
    expect(await events(id)).toEqual(['data_request.verified']);
    // Opened again (a second tab, a mail scanner): the same answer, no second e-mail or event.
    expect((await confirm(token)).body).toEqual(confirmed.body);
    expect(await mailsTo(owner)).toHaveLength(1);
    expect(await mailsTo(email)).toHaveLength(1);
    expect(await events(id)).toEqual(['data_request.verified']);
    expect((await confirm('x'.repeat(43))).body).toEqual(envelope('DATA_REQUEST.LINK_INVALID', 404));
  });

  it('when a Los Angeles visitor confirms, then the request is due in 45 days (US state law), extendable once by 45', async () => {
    const { domain, patch } = await newDomain();
    const email = `la-${randomUUID().slice(0, 8)}@example.net`;
    const id = (await ask(domain, { type: 'deletion', email }, LOS_ANGELES)).body.result.request_id;
    const confirmed = (await confirm(await tokenIn(email))).body.result;
    const stored = await row(id);
    expect(stored).toMatchObject({ deadline_rule: 'US_STATE', jurisdiction: 'CCPA', country: 'US' });
    expect(new Date(confirmed.due_at).getTime() - stored.verified_at!.getTime()).toBe(45 * DAY);
    const extended = await patch(id, { extend: { reason: 'Records are held by a processor' } });
    expect(extended.status).toBe(200);
    expect(new Date(extended.body.result.due_at).getTime() - stored.verified_at!.getTime()).toBe(90 * DAY);
    expect(extended.body.result.extension_reason).toBe('Records are held by a processor');
    expect((await patch(id, { extend: { reason: 'again' } })).body.error.code).toBe('DATA_REQUEST.INVALID_TRANSITION');
  });

  it('when the link is not opened in 24 hours, then the sweep expires the request and the link no longer works', async () => {
    const { domain } = await newDomain();
    const email = `late-${randomUUID().slice(0, 8)}@example.net`;
    const id = (await ask(domain, { type: 'access', email })).body.result.request_id;
    const token = await tokenIn(email);
    await sweepDataRequests(c.db, new Date(Date.now() + 25 * 3_600_000));
    expect(await row(id)).toMatchObject({ status: 'EXPIRED', token_hash: null });
    expect((await confirm(token)).body).toEqual(envelope('DATA_REQUEST.LINK_INVALID', 404));
  });

  it('when the owner works a request, then it moves VERIFIED -> IN_PROGRESS -> COMPLETED, the requester gets the note and data_request.closed is emitted; closed, it moves no more', async () => {
    const { domain, patch } = await newDomain();
    const email = `work-${randomUUID().slice(0, 8)}@example.net`;
    const id = (await ask(domain, { type: 'access', email })).body.result.request_id;
    await confirm(await tokenIn(email));
    const rejectedBare = await patch(id, { status: 'REJECTED' });
    expect(rejectedBare.status).toBe(400);
    expect(rejectedBare.body.error.data.issues.map((i: { path: string }) => i.path)).toEqual(['body.note']);
    expect((await patch(id, { status: 'IN_PROGRESS' })).body.result.status).toBe('IN_PROGRESS');
    const done = await patch(id, { status: 'COMPLETED', note: 'Your data is attached to this e-mail.' });
    expect(done.body.result).toMatchObject({ status: 'COMPLETED', closed_at: expect.any(String), overdue: false });
    expect(done.body.result.history.map((h: { kind: string }) => h.kind)).toEqual([
      'received',
      'verified',
      'status',
      'status',
    ]);
    const closing = (await mailsTo(email)).find((m) => m.kind === 'dsar-closed')!;
    expect(closing.subject).toBe(`Your privacy request to ${domain.hostname} has been completed`);
    expect(closing.text_body).toContain('Your data is attached to this e-mail.');
    expect(await events(id)).toEqual(['data_request.verified', 'data_request.closed']);
    expect((await patch(id, { status: 'IN_PROGRESS' })).body).toMatchObject({
      error: { code: 'DATA_REQUEST.INVALID_TRANSITION', status: 409 },
    });
    // Another domain of the partner's, or another partner's domain: 404.
    const other = await newDomain();
    expect((await patch(id, { note: 'x' }, other.domain.id)).status).toBe(404);
  });

  it('when the due date nears and passes, then the owner is reminded 7 days and 1 day before (each once) and the request is marked overdue once, with data_request.overdue', async () => {
    const { owner, domain } = await newDomain();
    const email = `due-${randomUUID().slice(0, 8)}@example.net`;
    const id = (await ask(domain, { type: 'correction', email })).body.result.request_id;
    const due = new Date((await confirm(await tokenIn(email))).body.result.due_at).getTime();
    const kinds = async () => (await mailsTo(owner)).map((m) => m.kind);
    await sweepDataRequests(c.db, new Date(due - 8 * DAY));
    expect(await kinds()).toEqual(['dsar']);
    await sweepDataRequests(c.db, new Date(due - 6 * DAY));
    await sweepDataRequests(c.db, new Date(due - 5 * DAY));
    expect(await kinds()).toEqual(['dsar', 'dsar-reminder']);
    await sweepDataRequests(c.db, new Date(due - 12 * 3_600_000));
    await sweepDataRequests(c.db, new Date(due - 11 * 3_600_000));
    expect(await kinds()).toEqual(['dsar', 'dsar-reminder', 'dsar-reminder']);
    await sweepDataRequests(c.db, new Date(due + 60_000));
    await sweepDataRequests(c.db, new Date(due + 120_000));
    expect(await kinds()).toEqual(['dsar', 'dsar-reminder', 'dsar-reminder', 'dsar-overdue']);
    expect(await events(id)).toEqual(['data_request.verified', 'data_request.overdue']);
    expect((await row(id)).overdue_at).not.toBeNull();
  });

  it('when one address is sent links again and again, then the fourth in an hour is 429 with Retry-After and no more e-mail goes to it', async () => {
    const { domain } = await newDomain();
    const email = `flood-${randomUUID().slice(0, 8)}@example.net`;
    for (let i = 0; i < 3; i++) expect((await ask(domain, { type: 'access', email })).status).toBe(202);
    const refused = await ask(domain, { type: 'access', email: email.toUpperCase() });
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('RATE.LIMITED');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(3_500);
    expect(await mailsTo(email)).toHaveLength(3);
  });
});
