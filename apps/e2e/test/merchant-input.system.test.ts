import { randomUUID } from 'node:crypto';
import { envelope, sharedSystem, type Partner, type System } from './support/system';

/** The issue paths of a 400 VALIDATION.INVALID answer. */
const issuePaths = (body: { error?: { code: string; data?: { issues?: { path: string }[] } } }) => {
  expect(body.error?.code).toBe('VALIDATION.INVALID');
  return (body.error?.data?.issues ?? []).map((i) => i.path);
};

describe('merchant input: reserved meta keys, product codes and invisible merchant ids (issue 16, items 5 and 6)', () => {
  let sys: System;
  let partner: Partner;

  beforeAll(async () => {
    sys = await sharedSystem();
    partner = await sys.partner();
    await sys.arrange(partner, 'POST', '/portal/merchants', { merchant_id: 'proto-a', meta: { tier: 'gold' } });
    await sys.arrange(partner, 'POST', '/portal/merchants', { merchant_id: 'proto-b' });
  });
  afterAll(async () => {
    await sys?.close();
  });

  it.each(['__proto__', 'constructor', 'prototype'])(
    'when the merchant list filters on meta.%s, then it is a 400 naming the key, not every merchant',
    async (key) => {
      const res = await sys.call(partner, 'GET', `/portal/merchants?meta.${key}=x`);
      expect(res.status).toBe(400);
      expect(issuePaths(res.body)).toEqual([`query.meta.${key}`]);
    },
  );

  it.each(['__proto__', 'constructor', 'prototype'])(
    'when a meta body has a %s key, then create and update are a 400 naming it',
    async (key) => {
      const meta = `{"ok":"y",${JSON.stringify(key)}:"x"}`;
      const created = await sys.call(
        partner,
        'POST',
        '/portal/merchants',
        `{"merchant_id":"proto-${key}","meta":${meta}}`,
      );
      expect(created.status).toBe(400);
      expect(issuePaths(created.body)).toEqual([`body.meta.${key}`]);
      const list = (await sys.arrange(partner, 'GET', '/portal/merchants?merchant_id=proto-a')).body.result as {
        id: string;
      }[];
      const updated = await sys.call(partner, 'PUT', `/portal/merchants/${list[0].id}`, `{"meta":${meta}}`);
      expect(updated.status).toBe(400);
      expect(issuePaths(updated.body)).toEqual([`body.meta.${key}`]);
      expect((await sys.arrange(partner, 'GET', `/portal/merchants/${list[0].id}`)).body.result.meta).toEqual({
        tier: 'gold',
      });
    },
  );

  it('when a merchant names an unknown default product or price list, then create and update are a 400 naming the field; known codes are kept', async () => {
    const nope = await sys.call(partner, 'POST', '/portal/merchants', {
      merchant_id: 'codes-1',
      default_product: 'NOPE',
    });
    expect(nope.status).toBe(400);
    expect(issuePaths(nope.body)).toEqual(['body.default_product']);
    const badList = await sys.call(partner, 'POST', '/portal/merchants', {
      merchant_id: 'codes-1',
      default_product: 'PRO',
      default_price_list: 'NOPE',
    });
    expect(issuePaths(badList.body)).toEqual(['body.default_price_list']);
    const listOnly = await sys.call(partner, 'POST', '/portal/merchants', {
      merchant_id: 'codes-1',
      default_price_list: 'NOPE',
    });
    expect(issuePaths(listOnly.body)).toEqual(['body.default_price_list']);
    const ok = await sys.call(partner, 'POST', '/portal/merchants', {
      merchant_id: 'codes-1',
      default_product: 'PRO',
      default_price_list: 'EU',
    });
    expect(ok.status).toBe(201);
    expect(ok.body.result).toMatchObject({ default_product: 'PRO', default_price_list: 'EU' });
    const update = await sys.call(partner, 'PUT', `/portal/merchants/${ok.body.result.id}`, {
      default_product: 'NOPE',
    });
    expect(issuePaths(update.body)).toEqual(['body.default_product']);
    expect(
      (
        await sys.call(partner, 'PUT', `/portal/merchants/${ok.body.result.id}`, {
          default_product: null,
          default_price_list: null,
        })
      ).status,
    ).toBe(200);
  });

  it.each([
    ['zero-width spaces', '\u200B\u200B'],
    ['spaces', '   '],
    ['a byte-order mark and a zero-width joiner', '\uFEFF\u200D'],
  ])(
    'when a merchant_id is only %s, then the merchant create, update and a domain create all refuse it',
    async (_name, merchantId) => {
      const created = await sys.call(partner, 'POST', '/portal/merchants', { merchant_id: merchantId });
      expect(created.status).toBe(400);
      expect(issuePaths(created.body)).toEqual(['body.merchant_id']);
      const list = (await sys.arrange(partner, 'GET', '/portal/merchants?merchant_id=proto-b')).body.result as {
        id: string;
      }[];
      expect(
        issuePaths(
          (await sys.call(partner, 'PUT', `/portal/merchants/${list[0].id}`, { merchant_id: merchantId })).body,
        ),
      ).toEqual(['body.merchant_id']);
      const host = `inv-${randomUUID().slice(0, 8)}.example.com`;
      const domain = await sys.call(partner, 'POST', '/portal/domains', {
        domain: host,
        company_name: `Inv ${host}`,
        account_email: `o@${host}`,
        company_setup: true,
        merchant_id: merchantId,
      });
      expect(domain.body).toEqual(envelope('VALIDATION.INVALID', 400));
      expect(issuePaths(domain.body)).toEqual(['body.merchant_id']);
    },
  );
});
