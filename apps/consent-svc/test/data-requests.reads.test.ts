import { randomUUID } from 'node:crypto';
import { envelope } from '@platform/testing';
import { startConsent, type ConsentTest } from './support';

const DAY = 86_400_000;

describe('data subject requests as the partner reads them: paginated, filtered by status and due date, only its own', () => {
  let c: ConsentTest;
  beforeAll(async () => {
    c = await startConsent({ DSAR_PER_CLIENT_PER_HOUR: '1000' });
  });
  afterAll(async () => {
    await c?.close();
  });

  /** A request sent and, unless told not to, confirmed (the owner then sees it due). */
  const request = async (d: { property_id: string; hostname: string }, confirm = true) => {
    const email = `r-${randomUUID().slice(0, 8)}@example.net`;
    const sent = await c.widget('POST', `/widget/v1/properties/${d.property_id}/requests`, {
      origin: `https://${d.hostname}`,
      body: { type: 'access', email },
    });
    if (confirm) {
      const mail = await c.db
        .selectFrom('mail_queue')
        .select('text_body')
        .where('to_address', '=', email)
        .executeTakeFirstOrThrow();
      const token = /#token=([\w-]+)/.exec(mail.text_body)![1];
      await c.widget('POST', '/widget/v1/requests/confirmations', { body: { token } });
    }
    return sent.body.result.request_id as string;
  };
  const ids = (res: { body: { result: { request_id: string }[] } }) => res.body.result.map((r) => r.request_id);

  it('when a domain has requests, then they list newest first in pages, filtered by status and due date', async () => {
    const p = c.partner();
    const domain = await c.domain(p.id, { merchants: ['m-dsar-1'] });
    const unconfirmed = await request(domain, false);
    const confirmed = [await request(domain), await request(domain)];
    const base = `/portal/instance/company/requests?domain_id=${domain.id}`;
    const first = await p.get(`${base}&limit=2`);
    expect(first.status).toBe(200);
    expect(ids(first)).toEqual([confirmed[1], confirmed[0]]);
    expect(first.body.meta).toMatchObject({ current_page: 1, next_page: 2 });
    expect(ids(await p.get(`${base}&limit=2&page=2`))).toEqual([unconfirmed]);
    expect(ids(await p.get(`${base}&status=RECEIVED`))).toEqual([unconfirmed]);
    expect(ids(await p.get(`${base}&status=VERIFIED`))).toEqual([confirmed[1], confirmed[0]]);
    const soon = new Date(Date.now() + 31 * DAY).toISOString();
    expect(ids(await p.get(`${base}&due_before=${soon}`))).toEqual([confirmed[1], confirmed[0]]);
    expect(ids(await p.get(`${base}&due_after=${soon}`))).toEqual([]);
    expect(ids(await p.get(`${base}&due_after=${new Date().toISOString().slice(0, 10)}`))).toHaveLength(2);
    // The merchant's domains' requests, the same.
    expect(ids(await p.get(`/portal/instance/company/requests?merchant_id=m-dsar-1`))).toHaveLength(3);
    const one = await p.get(`/portal/instance/company/requests/${confirmed[0]}?domain_id=${domain.id}`);
    expect(one.body.result).toMatchObject({
      request_id: confirmed[0],
      status: 'VERIFIED',
      deadline_rule: 'GDPR',
      overdue: false,
      history: [{ kind: 'received' }, { kind: 'verified' }],
    });
  });

  it("when a partner names another partner's domain or request, or none, or a bad filter, then 404 or 400, never their requests", async () => {
    const owner = c.partner();
    const stranger = c.partner();
    const domain = await c.domain(owner.id);
    const id = await request(domain);
    const foreign = await stranger.get(`/portal/instance/company/requests?domain_id=${domain.id}`);
    expect(foreign.body).toEqual(envelope('RESOURCE.NOT_FOUND', 404));
    expect((await stranger.get(`/portal/instance/company/requests/${id}?domain_id=${domain.id}`)).status).toBe(404);
    const own = await c.domain(stranger.id);
    expect((await stranger.get(`/portal/instance/company/requests/${id}?domain_id=${own.id}`)).status).toBe(404);
    expect((await stranger.get(`/portal/instance/company/requests?domain_id=${own.id}`)).body.result).toEqual([]);
    const none = await owner.get('/portal/instance/company/requests');
    expect(none.status).toBe(400);
    const bad = await owner.get(
      `/portal/instance/company/requests?domain_id=${domain.id}&status=DONE&due_before=soon&due_after=0000-01-01`,
    );
    expect(bad.body.error.data.issues.map((i: { path: string }) => i.path).sort()).toEqual([
      'query.due_after',
      'query.due_before',
      'query.status',
    ]);
  });
});
