import { CONSENT_CATEGORIES } from '@platform/contracts';
import { receipt, receiptsPath, startConsent, type ConsentTest } from './support';

// The widget shows each category's label and description as its settings give them (CONSENT_CATEGORIES,
// served by domains-svc); the signed record must state those very words, not a wording of its own.
describe('receipts: the record states the texts the visitor was shown', () => {
  let c: ConsentTest;
  beforeAll(async () => {
    c = await startConsent();
  });
  afterAll(() => c?.close());

  it("when a visitor grants some categories, then each category's purpose states the settings' label and description, with the visitor's answer", async () => {
    const domain = await c.domain(c.partner().id);
    const res = await c.widget('POST', receiptsPath(domain.property_id), {
      origin: `https://${domain.hostname}`,
      body: receipt({ categories: { functional: false, analytics: true, marketing: false } }),
    });
    expect(res.status).toBe(201);
    const granted: Record<string, boolean> = { necessary: true, functional: false, analytics: true, marketing: false };
    const purposes = res.body.result.data_collection[0].purposes as Array<Record<string, unknown>>;
    expect(purposes.map((p) => [p.category, p.name, p.legal_description, p.status])).toEqual(
      CONSENT_CATEGORIES.map((shown) => [
        shown.name,
        shown.label,
        shown.description,
        granted[shown.name] ? 'GRANTED' : 'DENIED',
      ]),
    );
  });
});
