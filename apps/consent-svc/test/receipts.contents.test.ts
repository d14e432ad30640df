import { receipt, receiptsPath, startConsent, type ConsentTest } from './support';

/** What a receipt may say: the fields a visitor (or anyone posing as the widget) could bend. */
describe('receipts: what a receipt may say', () => {
  let c: ConsentTest;
  beforeAll(async () => {
    c = await startConsent();
  });
  afterAll(() => c?.close());

  const stored = async (propertyId: string) =>
    c.db.selectFrom('records').selectAll().where('property_id', '=', propertyId).execute();
  const post = async (body: Record<string, unknown>) => {
    const domain = await c.domain(c.partner().id);
    const res = await c.widget('POST', receiptsPath(domain.property_id), {
      origin: `https://${domain.hostname}`,
      body,
    });
    return { res, rows: await stored(domain.property_id) };
  };
  const issuePaths = (res: { body: { error: { data: { issues: { path: string }[] } } } }) =>
    res.body.error.data.issues.map((i) => i.path);

  it('when Global Privacy Control is on and marketing is granted (the privacy center can send that), then marketing is recorded as refused: PARTIAL, not ALLOWED', async () => {
    const { res } = await post(receipt({ gpc: true }));
    expect(res.status).toBe(201);
    const record = res.body.result;
    expect([record.receipt_status, record.meta.gpc]).toEqual(['PARTIAL', true]);
    expect(record.subject_data.categories).toEqual({
      necessary: true,
      functional: true,
      analytics: true,
      marketing: false,
    });
    const marketing = record.data_collection[0].purposes.find((x: { category: string }) => x.category === 'marketing');
    expect(marketing.status).toBe('DENIED');
  });

  it('when a receipt says necessary is false, then 400 naming it and nothing is stored; necessary true is accepted', async () => {
    const refused = await post(
      receipt({ categories: { necessary: false, functional: true, analytics: true, marketing: true } }),
    );
    expect(refused.res.status).toBe(400);
    expect(issuePaths(refused.res)).toEqual(['body.categories.necessary']);
    expect(refused.rows).toEqual([]);
    const accepted = await post(
      receipt({ categories: { necessary: true, functional: false, analytics: false, marketing: false } }),
    );
    expect([accepted.res.status, accepted.res.body.result.receipt_status]).toEqual([201, 'DENIED']);
  });

  it('when widget_version is not a MAJOR.MINOR.PATCH version (HTML, free text, empty), then 400 naming it and nothing is stored', async () => {
    for (const widget_version of ['<img src=x onerror=alert(1)>', 'latest', '1.0', '1.0.0-beta', '']) {
      const { res, rows } = await post(receipt({ widget_version }));
      expect({ widget_version, status: res.status, paths: issuePaths(res), rows }).toEqual({
        widget_version,
        status: 400,
        paths: ['body.widget_version'],
        rows: [],
      });
    }
    const { res } = await post(receipt({ widget_version: '2.14.3' }));
    expect([res.status, res.body.result.meta.widget_version]).toEqual([201, '2.14.3']);
  });

  it('when consent_revision is not a revision the settings could give (HTML, spaces, control characters, 65 characters), then 400 naming it and nothing is stored', async () => {
    for (const consent_revision of ['<b>x</b>', 'rev 1', 'rev\n1', 'a'.repeat(65), '']) {
      const { res, rows } = await post(receipt({ consent_revision }));
      expect({ consent_revision, status: res.status, paths: issuePaths(res), rows }).toEqual({
        consent_revision,
        status: 400,
        paths: ['body.consent_revision'],
        rows: [],
      });
    }
    const { res } = await post(receipt({ consent_revision: 'Qm9vdHN0cmFwX3JldjE-_x' }));
    expect([res.status, res.body.result.meta.consent_revision]).toEqual([201, 'Qm9vdHN0cmFwX3JldjE-_x']);
  });
});
