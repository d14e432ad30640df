import { randomUUID } from 'node:crypto';
import { startSmtpServer, type TestSmtpServer } from '@platform/testing';
import { summariseHeldRequests } from '../src/domain/held-requests.job';
import { startConsent, type ConsentTest } from './support';

describe('data subject requests: past the hourly limits of owner e-mails they are stored and summarised, not e-mailed one by one', () => {
  let smtp: TestSmtpServer;
  let c: ConsentTest;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    c = await startConsent({
      SMTP_URL: smtp.url,
      MAIL_POLL_MS: '50',
      DSAR_MAIL_PER_PROPERTY_PER_HOUR: '2',
      DSAR_MAIL_PER_OWNER_PER_HOUR: '3',
      DSAR_PER_CLIENT_PER_HOUR: '4',
    });
  });
  afterAll(async () => {
    await c?.close();
    await smtp?.close();
  });

  const ownerEmail = () => `owner-${randomUUID().slice(0, 8)}@shop.example.com`;
  /** A request sent and confirmed from the link e-mailed to the requester (the owner hears of it only then). */
  const ask = async (domain: { property_id: string; hostname: string }, email = 'v@example.net') => {
    const sent = await c.widget('POST', `/widget/v1/properties/${domain.property_id}/requests`, {
      origin: `https://${domain.hostname}`,
      body: { type: 'access', email },
    });
    const link = await c.db
      .selectFrom('data_requests as r')
      .innerJoin('mail_queue as m', 'm.to_address', 'r.email')
      .select('m.text_body')
      .where('r.id', '=', sent.body.result.request_id)
      .where('m.kind', '=', 'dsar-confirm')
      .where('m.text_body', 'like', `%${domain.hostname}%`)
      .orderBy('m.id', 'desc')
      .executeTakeFirstOrThrow();
    const token = /#token=([\w-]+)/.exec(link.text_body)![1];
    return c.widget('POST', '/widget/v1/requests/confirmations', { body: { token } });
  };
  const mailsTo = (to: string) =>
    c.db.selectFrom('mail_queue').select(['kind', 'text_body']).where('to_address', '=', to).orderBy('id').execute();
  const heldOf = async (propertyId: string) =>
    (
      await c.db
        .selectFrom('data_requests')
        .select('id')
        .where('property_id', '=', propertyId)
        .where('held', '=', true)
        .orderBy('id')
        .execute()
    ).map((r) => r.id);

  it('when 10 requests for one property arrive at once, then all are stored, 2 are e-mailed and the other 8 come in one summary e-mail', async () => {
    const p = c.partner();
    const owner = ownerEmail();
    const domain = await c.domain(p.id, { owner_email: owner });
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => ask(domain, `v${i}@example.net`)));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    expect((await mailsTo(owner)).map((m) => m.kind)).toEqual(['dsar', 'dsar']);
    const held = await heldOf(domain.property_id);
    expect(held).toHaveLength(8);

    await summariseHeldRequests(c.db, new Date());
    const summaries = (await mailsTo(owner)).filter((m) => m.kind === 'dsar-summary');
    expect(summaries).toHaveLength(1);
    for (const id of held) expect(summaries[0].text_body).toContain(id);
    const mail = await smtp.waitForMessage((m) => m.to.includes(owner) && m.subject.includes('held'));
    expect(mail.subject).toBe(`8 held data subject requests for ${domain.hostname}`);
    await summariseHeldRequests(c.db, new Date());
    expect((await mailsTo(owner)).filter((m) => m.kind === 'dsar-summary')).toHaveLength(1);
  });

  it("when one owner's properties together pass the owner's limit, then the requests past it are held while another owner's still go out", async () => {
    const p = c.partner();
    const owner = ownerEmail();
    const first = await c.domain(p.id, { owner_email: owner });
    const second = await c.domain(p.id, { owner_email: owner });
    const other = await c.domain(p.id, { owner_email: ownerEmail() });
    for (const domain of [first, first, second, second]) expect((await ask(domain)).status).toBe(200);
    expect(await mailsTo(owner)).toHaveLength(3);
    expect(await heldOf(second.property_id)).toHaveLength(1);
    expect((await ask(other)).status).toBe(200);
    expect(await mailsTo(other.owner_email)).toHaveLength(1);
  });

  it('when one client address sends more requests in an hour than its limit, across properties, then 429 with Retry-After and nothing more is stored or mailed', async () => {
    const p = c.partner();
    const domains = [await c.domain(p.id), await c.domain(p.id)];
    const send = (i: number) =>
      c.widget('POST', `/widget/v1/properties/${domains[i % 2].property_id}/requests`, {
        origin: `https://${domains[i % 2].hostname}`,
        forwardedFor: '198.51.100.77',
        body: { type: 'access', email: `flood${i}@example.net` },
      });
    for (let i = 0; i < 4; i++) expect((await send(i)).status).toBe(202);
    const refused = await send(4);
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('RATE.LIMITED');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(3_500);
    expect(await mailsTo('flood4@example.net')).toEqual([]);
    // Another client is not held back by it.
    const other = await c.widget('POST', `/widget/v1/properties/${domains[0].property_id}/requests`, {
      origin: `https://${domains[0].hostname}`,
      forwardedFor: '198.51.100.78',
      body: { type: 'access', email: 'someone@example.net' },
    });
    expect(other.status).toBe(202);
  });
});
