// The widget's language on the server: the settings answer the `?lang=` the widget detected when
// the widget speaks it (pt-BR -> pt), else the property's default_language, with the categories'
// texts and the property's overrides in that language; the instance property reads and writes
// default_language and text_overrides (known languages and keys, plain text, bounded), never in
// property.updated; the consent revision is one for every language.
import { type WidgetSettings } from '@platform/contracts';
import { WIDGET_TEXTS } from '@platform/contracts/widget-texts-all';
import { startDomainsSvc, type Harness, type TestPartner, createTestDomain, type TestDomain } from './support/harness';

describe('the widget language: settings per language and text overrides', () => {
  let h: Harness;
  let p: TestPartner;
  beforeAll(async () => {
    h = await startDomainsSvc();
    p = h.partner();
  });
  afterAll(() => h?.close());

  const createDomain = () => createTestDomain(h, p);
  type Domain = TestDomain;
  const settings = async (d: Domain, lang?: string) => {
    const query = lang === undefined ? '' : `?lang=${encodeURIComponent(lang)}`;
    const res = await h.visit(`https://${d.host}`, 'GET', `/widget/v1/properties/${d.propertyId}/settings${query}`);
    expect(res.status).toBe(200);
    return res.body.result as WidgetSettings;
  };
  const put = (d: Domain, body: unknown) => h.call(p, 'PUT', `/portal/instance/property?domain_id=${d.id}`, body);
  const issues = (res: { body: { error: { data: { issues: Array<{ path: string }> } } } }) =>
    res.body.error.data.issues.map((i) => i.path);

  it('when the widget asks in a language it speaks, then the answer names it and the categories are in it; one revision for all', async () => {
    const d = await createDomain();
    const en = await settings(d);
    expect([en.language, en.texts, en.categories[0].label]).toEqual(['en', {}, 'Necessary']);
    const de = await settings(d, 'de');
    expect(de.language).toBe('de');
    expect(de.categories.map((c) => c.label)).toEqual(['Notwendig', 'Funktional', 'Statistik', 'Marketing']);
    expect(de.categories[3].description).toBe(WIDGET_TEXTS.de.catMarketingText);
    expect((await settings(d, 'pt-BR')).language).toBe('pt');
    expect(de.consent_revision).toBe(en.consent_revision);
  });

  it("when the widget asks in a language it does not speak, then the property's default_language answers", async () => {
    const d = await createDomain();
    expect((await settings(d, 'ja')).language).toBe('en');
    const res = await put(d, { default_language: 'fr' });
    expect([res.status, res.body.result.default_language]).toEqual([200, 'fr']);
    const fallback = await settings(d, 'ja');
    expect([fallback.language, fallback.categories[0].label]).toEqual(['fr', 'Nécessaires']);
    expect((await settings(d)).language).toBe('fr');
    expect((await settings(d, 'he')).language).toBe('he');
    expect((await put(d, { default_language: 'xx' })).status).toBe(400);
  });

  it('when the owner overrides texts per language, then each language answers its own overrides, blank ones dropped, outside property.updated', async () => {
    const d = await createDomain();
    const overrides = { de: { acceptAll: 'Alles klar', noticeTitle: '  ' }, ar: { rejectAll: 'لا شكرًا' } };
    const res = await put(d, { text_overrides: overrides });
    expect(res.status).toBe(200);
    expect(res.body.result.text_overrides).toEqual({ de: { acceptAll: 'Alles klar' }, ar: { rejectAll: 'لا شكرًا' } });
    expect((await h.call(p, 'GET', `/portal/instance/property?domain_id=${d.id}`)).body.result.text_overrides).toEqual(
      res.body.result.text_overrides,
    );
    expect((await settings(d, 'de-AT')).texts).toEqual({ acceptAll: 'Alles klar' });
    expect((await settings(d, 'ar')).texts).toEqual({ rejectAll: 'لا شكرًا' });
    expect((await settings(d, 'en')).texts).toEqual({});
    const events = await h.outbox(p.id, 'property.updated');
    expect(events.filter((e) => JSON.stringify(e.message).includes(d.propertyId))).toEqual([]);
    // The whole set is replaced: an empty object clears them.
    await put(d, { text_overrides: {} });
    expect((await settings(d, 'de')).texts).toEqual({});
  });

  it('when overrides name an unknown language or key, a category text, markup or too long a text, then 400 naming it and nothing changes', async () => {
    const d = await createDomain();
    await put(d, { text_overrides: { de: { ok: 'Gut' } } });
    const bad: Array<[unknown, string]> = [
      [{ xx: { ok: 'a' } }, 'body.text_overrides'],
      [{ de: { nope: 'a' } }, 'body.text_overrides.de'],
      [{ de: { catMarketing: 'Werbung' } }, 'body.text_overrides.de'],
      [{ de: { ok: '<b>OK</b>' } }, 'body.text_overrides.de.ok'],
      [{ de: { ok: 'x'.repeat(601) } }, 'body.text_overrides.de.ok'],
      [{ de: { ok: 'two\nlines' } }, 'body.text_overrides.de.ok'],
      [{ de: { ok: 7 } }, 'body.text_overrides.de.ok'],
    ];
    for (const [text_overrides, path] of bad) {
      const res = await put(d, { text_overrides });
      expect({ text_overrides, status: res.status, paths: issues(res) }).toEqual({
        text_overrides,
        status: 400,
        paths: [path],
      });
    }
    expect((await settings(d, 'de')).texts).toEqual({ ok: 'Gut' });
  });

  it('when another partner names the domain, then 404 and the overrides stay', async () => {
    const d = await createDomain();
    const other = h.partner();
    const res = await h.call(other, 'PUT', `/portal/instance/property?domain_id=${d.id}`, {
      text_overrides: { de: { ok: 'Nein' } },
    });
    expect(res.status).toBe(404);
    expect((await settings(d, 'de')).texts).toEqual({});
  });
});
