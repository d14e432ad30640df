// The language of a receipt: the record states the categories' titles and sentences in the language
// the visitor read (libs/contracts' catalogue) and names it in meta.language; an unknown language is
// 400; a receipt without one (widgets older than the catalogue) was read in English.
import { WIDGET_TEXTS } from '@platform/contracts/widget-texts-all';
import { receipt, receiptsPath, startConsent, type ConsentTest } from './support';

describe('receipts: the language the visitor read', () => {
  let c: ConsentTest;
  beforeAll(async () => {
    c = await startConsent();
  });
  afterAll(() => c?.close());

  const post = async (body: Record<string, unknown>) => {
    const domain = await c.domain(c.partner().id);
    return c.widget('POST', receiptsPath(domain.property_id), { origin: `https://${domain.hostname}`, body });
  };
  const purpose = (record: { data_collection: Array<{ purposes: Array<Record<string, string>> }> }, category: string) =>
    record.data_collection[0].purposes.find((p) => p.category === category)!;

  it('when the visitor read German, then the record states the German texts and meta.language de', async () => {
    const res = await post(receipt({ language: 'de' }));
    expect(res.status).toBe(201);
    const record = res.body.result;
    expect(record.meta.language).toBe('de');
    expect(purpose(record, 'marketing')).toMatchObject({
      name: WIDGET_TEXTS.de.catMarketing,
      legal_description: WIDGET_TEXTS.de.catMarketingText,
      status: 'GRANTED',
    });
    expect(purpose(record, 'necessary').name).toBe('Notwendig');
  });

  it('when the visitor read Arabic, then the record is in Arabic; with no language it is English', async () => {
    const arabic = (await post(receipt({ language: 'ar' }))).body.result;
    expect(purpose(arabic, 'analytics').legal_description).toBe(WIDGET_TEXTS.ar.catAnalyticsText);
    const english = (await post(receipt())).body.result;
    expect(english.meta.language).toBe('en');
    expect(purpose(english, 'analytics').name).toBe('Analytics');
  });

  it('when the language is one the widget does not speak, then 400 naming it', async () => {
    const res = await post(receipt({ language: 'xx' }));
    expect(res.status).toBe(400);
    expect(res.body.error.data.issues.map((i: { path: string }) => i.path)).toEqual(['body.language']);
  });
});
