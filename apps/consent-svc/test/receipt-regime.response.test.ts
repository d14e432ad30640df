import { SAMPLE_ADDRESSES } from '@platform/geo';
import { receipt, receiptsPath, startConsent, type ConsentTest } from './support';

/** The regime the visitor's notice followed, recorded beside the jurisdiction (meta.regime and the regime column). */
describe('receipts record the regime', () => {
  let c: ConsentTest;
  beforeAll(async () => {
    c = await startConsent();
  });
  afterAll(() => c?.close());

  const send = async (forwardedFor: string, body: Record<string, unknown>) => {
    const p = c.partner();
    const domain = await c.domain(p.id);
    const res = await c.widget('POST', receiptsPath(domain.property_id), {
      origin: `https://${domain.hostname}`,
      forwardedFor,
      body: receipt(body),
    });
    expect(res.status).toBe(201);
    const row = await c.db
      .selectFrom('records')
      .select('regime')
      .where('id', '=', res.body.result.receipt_id)
      .executeTakeFirstOrThrow();
    return { record: res.body.result, column: row.regime };
  };

  it("when the widget names no regime, then the place's is recorded: OPT_OUT in Los Angeles, OPT_IN in Berlin", async () => {
    const la = await send(SAMPLE_ADDRESSES.losAngeles, {});
    expect(la.record).toMatchObject({ jurisdiction: 'CCPA', meta: { regime: 'OPT_OUT' } });
    expect(la.column).toBe('OPT_OUT');
    const berlin = await send(SAMPLE_ADDRESSES.berlin, {});
    expect(berlin.record).toMatchObject({ jurisdiction: 'GDPR', meta: { regime: 'OPT_IN' } });
  });

  it("when the widget names the regime it showed (a property's pin), then that one is recorded beside the place's jurisdiction; an unknown one is 400", async () => {
    const pinned = await send(SAMPLE_ADDRESSES.berlin, { regime: 'NOTICE_ONLY' });
    expect(pinned.record).toMatchObject({ jurisdiction: 'GDPR', meta: { regime: 'NOTICE_ONLY' } });
    expect(pinned.column).toBe('NOTICE_ONLY');
    const p = c.partner();
    const domain = await c.domain(p.id);
    const res = await c.widget('POST', receiptsPath(domain.property_id), {
      origin: `https://${domain.hostname}`,
      forwardedFor: SAMPLE_ADDRESSES.berlin,
      body: receipt({ regime: 'LAX' }),
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION.INVALID');
  });
});
