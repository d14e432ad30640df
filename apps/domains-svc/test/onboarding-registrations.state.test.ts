import { createHash, randomUUID } from 'node:crypto';
import { sql } from '@platform/db';
import { envelope, startDomainsSvc, uniqueHost, WIDGET_BASE_URL, type Harness } from './support/harness';

/**
 * The registration widget's calls on a real domains-svc, as the gateway makes them (its token for
 * itself, the partner and its onboarding settings in the body): a registration is kept with its
 * e-mailed link (the token only as a hash), and the link makes the domain once.
 */
let h: Harness;
beforeAll(async () => {
  h = await startDomainsSvc();
});
afterAll(async () => {
  await h?.close();
});

const LINK = /https:\/\/widget\.test\/widget\/v1\/onboarding\/confirm#partner=([\w-]+)&token=([\w-]+)/;

const partnerOf = (extra: Record<string, unknown> = {}) => ({
  id: randomUUID(),
  name: 'Acme Hosting',
  required_fields: [],
  default_product: null,
  default_price_list: null,
  ...extra,
});
type Partner = ReturnType<typeof partnerOf>;

const registrationOf = (host: string, extra: Record<string, unknown> = {}) => ({
  domain: `https://${host}/`,
  company_name: `Company of ${host}`,
  account_first_name: 'Rita',
  account_last_name: 'Register',
  account_email: `rita@${host}`,
  ...extra,
});

const store = (partner: Partner, registration: Record<string, unknown>) =>
  h.call(h.gatewayItself(), 'POST', '/internal/onboarding/registrations', { partner, registration });
const redeem = (partner: Partner, token: string) =>
  h.call(h.gatewayItself(), 'POST', '/internal/onboarding/registrations/confirm', { partner, token });

/** The token of the link e-mailed to `to`. */
const tokenSentTo = async (to: string) => {
  const mail = await h.smtp.waitForMessage((m) => m.to.includes(to) && LINK.test(m.decoded));
  return LINK.exec(mail.decoded)![2];
};

const domainsOf = async (partnerId: string) => {
  const { rows } = await sql<{
    id: string;
    hostname: string;
    source: string;
    product_code: string;
    merchants: string[];
  }>`
    SELECT id, hostname, source, product_code, merchants FROM domains.domains WHERE partner_id = ${partnerId}`.execute(
    h.deps.db,
  );
  return rows;
};

describe('registrations', () => {
  it('when a registration is kept, then its link is e-mailed, only the token hash is stored and no domain is made yet', async () => {
    const partner = partnerOf();
    const host = uniqueHost('reg');
    const res = await store(partner, registrationOf(host));
    expect([res.status, res.body.result.email]).toEqual([202, `rita@${host}`]);
    const mail = await h.smtp.waitForMessage((m) => m.to.includes(`rita@${host}`));
    expect(mail.subject).toBe(`Acme Hosting: confirm the registration of ${host}`);
    const token = await tokenSentTo(`rita@${host}`);
    expect(mail.decoded).toContain(`${WIDGET_BASE_URL}/widget/v1/onboarding/confirm#partner=${partner.id}&token=`);
    const { rows } = await sql<{ token_hash: Buffer; input: unknown }>`
      SELECT token_hash, input FROM domains.registrations WHERE partner_id = ${partner.id}`.execute(h.deps.db);
    expect(rows.map((r) => r.token_hash.toString('hex'))).toEqual([createHash('sha256').update(token).digest('hex')]);
    expect(JSON.stringify(rows[0].input)).not.toContain(token);
    expect(await domainsOf(partner.id)).toEqual([]);
  });

  it("when the link is opened twice at once, then one domain is made with source WIDGET_REGISTRATION, the partner's default product and the merchant, and both answers name it", async () => {
    const partner = partnerOf({ default_product: 'PRO' });
    const host = uniqueHost('twice');
    expect((await store(partner, registrationOf(host, { merchant_id: 'm-7' }))).status).toBe(202);
    const token = await tokenSentTo(`rita@${host}`);
    const [a, b] = await Promise.all([redeem(partner, token), redeem(partner, token)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.result).toEqual(b.body.result);
    const domains = await domainsOf(partner.id);
    expect(domains).toEqual([
      {
        id: expect.any(String),
        hostname: host,
        source: 'WIDGET_REGISTRATION',
        product_code: 'PRO',
        merchants: ['m-7'],
      },
    ]);
    expect(a.body.result.hostname).toBe(host);
    expect(a.body.result.privacy_widget).toMatch(
      /^<script src="https:\/\/widget\.test\/widget\/v1\/[\w-]+\/loader\.js"><\/script>$/,
    );
    expect((await h.outbox(partner.id, 'domain.created')).map((r) => r.message.payload)).toEqual([
      expect.objectContaining({ params: expect.objectContaining({ source: 'WIDGET_REGISTRATION', domain: host }) }),
    ]);
    // Later, too: the same answer, nothing more made.
    expect((await redeem(partner, token)).body).toEqual(a.body);
    expect(await domainsOf(partner.id)).toHaveLength(1);
  });

  it("when the link expired, or is another partner's, then 404 REGISTRATION.LINK_INVALID and nothing is made", async () => {
    const partner = partnerOf();
    const host = uniqueHost('late');
    await store(partner, registrationOf(host));
    const token = await tokenSentTo(`rita@${host}`);
    const other = await redeem(partnerOf(), token);
    expect([other.status, other.body]).toEqual([404, envelope('REGISTRATION.LINK_INVALID', 404)]);
    await sql`UPDATE domains.registrations SET expires_at = now() - interval '1 second' WHERE partner_id = ${partner.id}`.execute(
      h.deps.db,
    );
    const late = await redeem(partner, token);
    expect([late.status, late.body]).toEqual([404, envelope('REGISTRATION.LINK_INVALID', 404)]);
    expect(await domainsOf(partner.id)).toEqual([]);
  });

  it("when the partner's settings require a field, or it has the website, or an address asks a fourth time in the hour, then 400, 409 or 429", async () => {
    const strict = partnerOf({ required_fields: ['phone_number'] });
    const missing = await store(strict, registrationOf(uniqueHost('strict')));
    expect(missing.body.error.data.issues).toEqual([
      { path: 'body.phone_number', message: 'is required by the onboarding settings' },
    ]);
    const partner = partnerOf();
    const host = uniqueHost('busy');
    const email = `busy@${host}`;
    for (const label of ['a', 'b', 'c']) {
      expect((await store(partner, registrationOf(`${label}.${host}`, { account_email: email }))).status).toBe(202);
    }
    const fourth = await store(partner, registrationOf(`d.${host}`, { account_email: email }));
    expect([fourth.status, fourth.body]).toEqual([429, envelope('RATE.LIMITED', 429)]);
    expect(Number(fourth.headers.get('retry-after'))).toBeGreaterThan(3500);

    await redeem(partner, await tokenSentTo(email));
    const [made] = await domainsOf(partner.id);
    const again = await store(partner, registrationOf(made.hostname, { account_email: `other@${host}` }));
    expect([again.status, again.body]).toEqual([409, envelope('DOMAIN.ALREADY_EXISTS', 409)]);
    expect(again.body.error.data).toBeUndefined();
  });

  it("when a partner's own token calls the widgets' internal routes, then 403: only the gateway asking for itself may", async () => {
    const partner = partnerOf();
    const key = h.apiKeyOf(partner.id);
    const res = await h.call(key, 'POST', '/internal/onboarding/registrations', {
      partner,
      registration: registrationOf(uniqueHost('key')),
    });
    expect([res.status, res.body]).toEqual([403, envelope('AUTH.FORBIDDEN', 403)]);
  });
});
