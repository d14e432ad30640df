// Consent figures end to end: the widget's notice views and receipts raise consent-svc's counters,
// read by the partner (domain, merchant, portfolio) and the owner through the gateway; the records
// export is streamed through the gateway (chunked, piped as it comes, never held whole).
import { randomUUID } from 'node:crypto';
import { consentFiguresSchema } from '@platform/contracts';
import { act } from '@platform/testing';
import { ownerSession, sendReceipt } from './support/owner-session';
import { envelope, sharedSystem, type Partner, type System } from './support/system';

const today = () => new Date().toISOString().slice(0, 10);

describe('consent figures and the streamed export through the gateway', () => {
  let sys: System;
  let partner: Partner;
  let other: Partner;

  beforeAll(async () => {
    sys = await sharedSystem();
    [partner, other] = await Promise.all([sys.partner(), sys.partner()]);
  });
  afterAll(() => sys?.close());

  const createDomain = async (who: Partner, merchantId?: string) => {
    const hostname = `figures-${randomUUID().slice(0, 8)}.example.com`;
    const res = await sys.arrange(who, 'POST', '/portal/domains', {
      domain: hostname,
      company_name: `Figures ${hostname}`,
      account_email: `owner@${hostname}`,
      company_setup: true,
      country: 'SE',
      ...(merchantId ? { merchant_id: merchantId } : {}),
    });
    const d = res.body.result as { id: string; instance_property_id: string };
    return { id: d.id, hostname, propertyId: d.instance_property_id };
  };
  const noticeView = (d: { hostname: string; propertyId: string }) =>
    act(sys.gateway, 'POST', `/widget/v1/properties/${d.propertyId}/notice-views`, {
      headers: { origin: `https://${d.hostname}`, 'x-forwarded-for': '89.160.20.112' },
    });

  it('when visitors see the notice and choose, then the partner reads the day by domain, merchant and portfolio, and the owner reads the domain', async () => {
    const merchantId = `m-${randomUUID().slice(0, 8)}`;
    const d = await createDomain(partner, merchantId);
    await sendReceipt(sys, d, { subject: randomUUID().replaceAll('-', ''), analytics: true });
    await sendReceipt(sys, d, { subject: randomUUID().replaceAll('-', ''), analytics: false });
    expect((await noticeView(d)).status).toBe(202);
    expect((await noticeView(d)).status).toBe(202);

    const range = `from=${today()}&to=${today()}`;
    const byDomain = await sys.call(partner, 'GET', `/portal/instance/property/stats?domain_id=${d.id}&${range}`);
    expect(byDomain.status).toBe(200);
    const figures = consentFiguresSchema.parse(byDomain.body.result);
    expect(figures.totals).toEqual({
      notice_views: 2,
      accept_all: 0,
      reject_all: 0,
      custom: 2,
      gpc_opt_outs: 0,
      granted: { functional: 2, analytics: 1, marketing: 0 },
    });
    expect(figures.opt_in_rate).toEqual({ functional: 1, analytics: 0.5, marketing: 0 });
    const byMerchant = await sys.call(
      partner,
      'GET',
      `/portal/instance/property/stats?merchant_id=${merchantId}&${range}`,
    );
    expect(byMerchant.body.result).toEqual(byDomain.body.result);
    const portfolio = await sys.call(partner, 'GET', `/portal/stats/consent?${range}`);
    expect(consentFiguresSchema.parse(portfolio.body.result).totals.custom).toBeGreaterThanOrEqual(2);

    const owner = await ownerSession(sys, partner, d.id, { email: `viewer@${d.hostname}`, role: 'VIEWER' });
    const own = await owner.call('GET', `/portal/owner/domains/${d.id}/stats?${range}`);
    expect([own.status, own.body.result]).toEqual([200, byDomain.body.result]);

    const foreign = await sys.call(other, 'GET', `/portal/instance/property/stats?domain_id=${d.id}&${range}`);
    expect([foreign.status, foreign.body]).toEqual([404, envelope('RESOURCE.NOT_FOUND', 404)]);
    const bad = await sys.call(
      partner,
      'GET',
      `/portal/instance/property/stats?domain_id=${d.id}&from=2026-13-01&to=x`,
    );
    expect(bad.status).toBe(400);
  });

  it('when 20,000 records are exported through the gateway, then they come chunked, one line each, and another partner gets 404', async () => {
    const d = await createDomain(partner);
    await sendReceipt(sys, d, { subject: randomUUID().replaceAll('-', ''), analytics: true });
    const db = await sys.db();
    await db.query(
      `INSERT INTO consent.records (id, partner_id, property_id, domain_id, receipt_type, receipt_status, body, signature, nonce, created_at)
       SELECT 'RCPT_' || md5($1 || i), $2, $3, $4, 'COOKIE_CONSENT', 'DENIED',
              jsonb_build_object('receipt_id', 'RCPT_' || md5($1 || i), 'subject', 'v' || i), 'sig', md5($1 || i), now() - i * interval '1 second'
       FROM generate_series(1, 20000) AS i`,
      [randomUUID(), partner.id, d.propertyId, d.id],
    );
    const from = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const path = `/portal/instance/company/records/export?domain_id=${d.id}&from=${from}&to=${today()}&format=ndjson`;
    const res = await fetch(`${sys.gateway}${path}`, { headers: { authorization: `Bearer ${partner.key}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/x-ndjson');
    expect(res.headers.get('transfer-encoding')).toBe('chunked');
    let lines = 0;
    let pieces = 0;
    for await (const piece of res.body as AsyncIterable<Uint8Array>) {
      pieces += 1;
      for (const b of piece) if (b === 10) lines += 1;
    }
    expect(lines).toBe(20_001);
    expect(pieces).toBeGreaterThan(1);

    const foreign = await sys.call(other, 'GET', path);
    expect([foreign.status, foreign.body]).toEqual([404, envelope('RESOURCE.NOT_FOUND', 404)]);
    const csv = await sys.call(partner, 'GET', path.replace('ndjson', 'csv'));
    expect(csv.text.split('\r\n')).toHaveLength(20_003);
  });
});
