// The privacy center in real Chromium: tabs follow the property's flags, open('dsar') and the
// request form, documents, company and DPO, accessibility tools, keyboard use, axe-core, and an
// API outage that must leave the page working with scripts blocked.
import type { Page } from 'playwright-core';
import {
  booted,
  computed,
  eventually,
  evaluate,
  screenshot,
  seriousViolations,
  widgetTestBed,
} from './support/browser';
import { defaultSettings, FakePlatform } from './support/fake-platform';

const bed = widgetTestBed();

const open = (url?: string) => bed.open({ url });
const CENTER = '[data-privacy-center]';
const tabs = (page: Page) =>
  page.locator('[data-privacy-view]').evaluateAll((ts) => ts.map((t) => t.getAttribute('data-privacy-view')));
const selected = (page: Page) =>
  page.locator('[data-privacy-view][aria-selected="true"]').getAttribute('data-privacy-view');
const focusedView = (page: Page) =>
  evaluate<string | null>(
    page,
    "document.querySelector('[data-privacy-widget-host]').shadowRoot.activeElement?.getAttribute('data-privacy-view') ?? null",
  );

describe('the privacy center', () => {
  it.each([
    [{}, ['consent', 'dsar', 'docs', 'accessibility', 'company', 'dpo']],
    [
      { has_dsar: false, has_docs: false, has_accessibility: false, display_company: false, display_dpo: false },
      ['consent'],
    ],
    [{ has_docs: false, display_company: false }, ['consent', 'dsar', 'accessibility', 'dpo']],
  ])('shows the tabs the flags allow (%j)', async (flags, expected) => {
    bed.platform.settings = defaultSettings(flags);
    const page = await open();
    await booted(page);
    await page.evaluate('PrivacyWidget.open()');
    await page.locator(CENTER).waitFor();
    expect(await tabs(page)).toEqual(expected);
    expect(await selected(page)).toBe('consent');
    expect(await page.locator('[data-privacy-widget]').count()).toBe(0); // the notice steps aside
  });

  it("open('dsar') opens the requests tab; a request is posted with the visitor id and acknowledged", async () => {
    const page = await open();
    await page.locator('[data-consent-action="accept"]').click();
    const [receipt] = await eventually(
      () => bed.platform.receipts,
      (r) => r.length === 1,
    );
    await page.evaluate("PrivacyWidget.open('dsar')");
    expect(await selected(page)).toBe('dsar');
    expect(await focusedView(page)).toBe('dsar');
    await page.getByLabel('Request', { exact: true }).selectOption('opt_out');
    await page.getByLabel('E-mail address (required)').fill('visitor@mail.example.test');
    await page.getByLabel('Name (optional)').fill('Vera Visitor');
    await page.getByRole('button', { name: 'Send request' }).click();
    await page.getByText(/Check your e-mail: we sent .+ a link to confirm your request\. Reference: DSR_/).waitFor();
    expect(bed.platform.requests).toHaveLength(1);
    expect(bed.platform.requests[0].body).toEqual({
      type: 'opt_out',
      email: 'visitor@mail.example.test',
      name: 'Vera Visitor',
      subject: receipt.body.subject,
    });
    expect(await evaluate(page, 'PrivacyWidget.getConsent()')).toEqual({
      necessary: true,
      functional: true,
      analytics: true,
      marketing: false,
    });
    expect(bed.platform.receipts).toHaveLength(1); // the server turns an opt-out request into its receipt
  });

  it('queues open() called before the widget loaded', async () => {
    let release = () => undefined as void;
    bed.platform.settingsGate = new Promise<void>((resolve) => (release = resolve));
    const page = await open();
    await page.evaluate("PrivacyWidget.open('docs')");
    expect(await page.locator(CENTER).count()).toBe(0);
    release();
    await page.locator(CENTER).waitFor();
    expect(await selected(page)).toBe('docs');
  });

  it('generates the policies, company details and the DPO contact from the settings', async () => {
    bed.platform.settings = defaultSettings({
      data_collection: [
        {
          name: 'Contact data',
          description: 'Name and e-mail',
          purposes: [{ name: 'Order handling', legal_base: 'contract' }],
          partners: [{ name: 'Mail Co', usage: 'newsletters', url: 'https://mail.example.test' }],
        },
      ],
    });
    const page = await open();
    await booted(page);
    await page.evaluate("PrivacyWidget.open('docs')");
    const center = page.locator(CENTER);
    await center.getByText('Privacy policy').waitFor();
    expect(await center.textContent()).toContain(
      'Example Shop (Hauptstr. 1, 10115 Berlin, DE) is responsible for the personal data processed on shop.example.test.',
    );
    expect(await center.textContent()).toContain('Order handling (legal basis: contract)');
    expect(await center.textContent()).toContain('Cookie policy');
    await page.locator('[data-privacy-view="company"]').click();
    expect(await center.textContent()).toContain('privacy@shop.example.test');
    await page.locator('[data-privacy-view="dpo"]').click();
    expect(await center.textContent()).toContain('No data protection officer is on file.');
    await screenshot(page, 'privacy-center-dpo');
  });

  it('names the DPO when one is on file', async () => {
    bed.platform.settings = defaultSettings({ dpo: { name: 'Dana Officer', email: 'dpo@shop.example.test' } });
    const page = await open();
    await booted(page);
    await page.evaluate("PrivacyWidget.open('dpo')");
    const text = await page.locator(CENTER).textContent();
    expect(text).toContain('Dana Officer');
    expect(text).toContain('dpo@shop.example.test');
    expect(text).not.toContain('No data protection officer');
  });

  it('applies accessibility tools to the page and remembers them on this site', async () => {
    const page = await open();
    await booted(page);
    await page.evaluate("PrivacyWidget.open('accessibility')");
    await page.getByLabel('Readable font').check();
    await page.getByLabel('Stop animations').check();
    await page.getByLabel('Text size').selectOption('150');
    const pageFont = async () => (await computed(page.locator('h1'), ['fontFamily']))[0];
    const zoom = async () => (await computed(page.locator('body'), ['zoom']))[0];
    expect(await pageFont()).toContain('Verdana');
    expect(await zoom()).toBe('1.5');
    await page.reload();
    await booted(page);
    expect(await pageFont()).toContain('Verdana');
    expect(await zoom()).toBe('1.5');
  });

  it('is keyboard operable: arrows move between tabs, Tab stays inside, Escape closes and returns focus', async () => {
    const page = await open();
    await page.locator('[data-consent-action="reject"]').click();
    await page.locator('a', { hasText: 'Privacy choices' }).focus();
    await page.keyboard.press('Enter');
    await page.locator(CENTER).waitFor();
    expect(await focusedView(page)).toBe('consent');
    await page.keyboard.press('ArrowRight');
    expect(await focusedView(page)).toBe('dsar');
    expect(await selected(page)).toBe('dsar');
    await page.keyboard.press('End');
    expect(await focusedView(page)).toBe('dpo');
    for (let i = 0; i < 12; i++) await page.keyboard.press('Tab');
    expect(await evaluate(page, "document.activeElement?.hasAttribute('data-privacy-widget-host')")).toBe(true); // still inside
    await page.keyboard.press('Escape');
    expect(await page.locator(CENTER).count()).toBe(0);
    expect(await evaluate(page, 'document.activeElement?.textContent')).toBe('Privacy choices');
  });

  it('has no serious or critical axe-core violation in any tab', async () => {
    bed.platform.settings = defaultSettings({ dpo: { name: 'Dana Officer', email: 'dpo@shop.example.test' } });
    const page = await open();
    await booted(page);
    await page.evaluate('PrivacyWidget.open()');
    for (const view of await tabs(page)) {
      await page.locator(`[data-privacy-view="${view}"]`).click();
      expect({ view, violations: await seriousViolations(page) }).toEqual({ view, violations: [] });
    }
    await screenshot(page, 'privacy-center');
  });
});

describe('an API outage', () => {
  it('leaves the page working and marked scripts blocked when the settings cannot be read', async () => {
    bed.platform.settingsStatus = 503;
    const served = bed.platform.settingsServed;
    const page = await open();
    // The settings may have been answered before open() returned: wait on the fake's own count.
    await eventually(
      () => bed.platform.settingsServed,
      (n) => n > served,
    );
    expect(await evaluate(page, 'window.pageWorks')).toBe(true);
    await page.locator('#buy').click();
    expect(await page.locator('#buy').textContent()).toBe('Added to cart');
    expect(await evaluate(page, 'PrivacyWidget.getConsent()')).toEqual({
      necessary: true,
      functional: false,
      analytics: false,
      marketing: false,
    });
    await page.evaluate('PrivacyWidget.open()');
    expect(await evaluate(page, '[window.analyticsRan ?? null, window.marketingRan ?? null]')).toEqual([null, null]);
    expect(await page.locator('[data-privacy-widget-host]').count()).toBe(0);
  });

  it('leaves the page working and marked scripts blocked when the widget host is unreachable', async () => {
    const dead = await new FakePlatform().start();
    const deadBase = dead.apiBase;
    await dead.close();
    const page = await open(bed.platform.pageUrl('index.html') + '?api=' + encodeURIComponent(deadBase));
    expect(await evaluate(page, 'window.pageWorks')).toBe(true);
    expect(await evaluate(page, 'typeof window.PrivacyWidget')).toBe('undefined');
    expect(await evaluate(page, '[window.analyticsRan ?? null, window.marketingRan ?? null]')).toEqual([null, null]);
  });
});
