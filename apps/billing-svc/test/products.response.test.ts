import { productSchema } from '@platform/contracts';
import { startTestService } from '@platform/testing';
import { billingService } from '../src/service';

describe('billing-svc product catalogue', () => {
  const start = () => startTestService(billingService);
  let t: Awaited<ReturnType<typeof start>>;
  beforeAll(async () => {
    t = await start();
  });
  afterAll(() => t?.close());

  const get = async (path: string, permissions = ['products:read']) => {
    const { token } = t.partner({ permissions });
    const res = await fetch(`${t.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
    return { status: res.status, body: (await res.json()) as { result?: unknown; error?: { code: string } } };
  };

  it('when the catalogue is listed, then it holds several products and price lists, monthly and yearly prices in more than one currency, each in the contract shape', async () => {
    const res = await get('/portal/products');
    expect(res.status).toBe(200);
    const products = (res.body.result as unknown[]).map((p) => productSchema.parse(p));
    expect(products.map((p) => p.code)).toEqual(['FREE', 'PRO', 'ENTERPRISE', 'AUDIT']);
    const prices = products.flatMap((p) => p.prices);
    expect(new Set(prices.map((p) => p.price_list.code))).toEqual(new Set(['STANDARD', 'PARTNER', 'EU', 'UK']));
    expect(new Set(prices.map((p) => p.currency.id))).toEqual(new Set(['USD', 'EUR', 'GBP']));
    expect(new Set(prices.map((p) => p.frequency))).toEqual(new Set(['MONTH', 'YEAR']));
    expect(products.find((p) => p.code === 'PRO')!.prices).toContainEqual({
      id: 202,
      frequency: 'YEAR',
      currency: { id: 'USD', name: 'US Dollar' },
      price_amount: 190,
      price_list: { id: 1, code: 'STANDARD', type: 'PUBLIC' },
    });
  });

  it('when one product is asked for by id or by code, then it answers that product; an unknown one is 404', async () => {
    const byCode = await get('/portal/products/PRO');
    const byId = await get('/portal/products/2');
    expect(byCode.body).toEqual(byId.body);
    expect(byCode.body.result).toMatchObject({ id: 2, code: 'PRO', type: 'SUBSCRIPTION' });
    for (const missing of ['NOPE', '99', 'pro', '2.0']) {
      const res = await get(`/portal/products/${missing}`);
      expect({ missing, status: res.status, code: res.body.error?.code }).toEqual({
        missing,
        status: 404,
        code: 'RESOURCE.NOT_FOUND',
      });
    }
  });

  it('when the key lacks products:read, then 403', async () => {
    expect((await get('/portal/products', ['domains:read'])).status).toBe(403);
  });
});
