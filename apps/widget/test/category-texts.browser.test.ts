// The category texts in real Chromium: the widget shows each category's label and description as
// the settings give them (libs/contracts' one table, served by domains-svc), never a wording of its
// own, so what the visitor reads is what the signed receipt states.
import { CONSENT_CATEGORIES } from '@platform/contracts';
import type { Page } from 'playwright-core';
import { booted, widgetTestBed } from './support/browser';
import { defaultSettings } from './support/fake-platform';

const bed = widgetTestBed();

/** Words no build of the widget carries: only the settings can have put them on the page. */
const REWORDED = CONSENT_CATEGORIES.map((c) => ({
  ...c,
  label: `${c.label} (settings' title)`,
  description: `The settings' sentence about ${c.name}.`,
}));

/** [category, title, sentence] of each switch in `scope`, as displayed. */
const shown = (page: Page, scope: string) =>
  page.locator(`${scope} [data-consent-category]`).evaluateAll((inputs) =>
    inputs.map((input) => {
      // The switch's row holds its label (title, then the sentence in <small>).
      const label = input.parentElement!.querySelector(`label[for="${input.id}"]`)!;
      return [
        input.getAttribute('data-consent-category'),
        label.firstChild!.textContent,
        label.querySelector('small')!.textContent,
      ];
    }),
  );

describe('the category texts', () => {
  it.each([
    ['reworded by the settings', REWORDED],
    ['as domains-svc serves them (CONSENT_CATEGORIES)', CONSENT_CATEGORIES],
  ])(
    'when the settings state the categories (%s), then the settings view, the consent tab and the cookie policy show exactly their titles and sentences',
    async (_, categories) => {
      bed.platform.settings = defaultSettings({ categories });
      const expected = categories.map((c) => [c.name, c.label, c.description]);
      const page = await bed.open();
      await page.locator('[data-consent-action="settings"]').click();
      expect(await shown(page, '[data-privacy-widget]')).toEqual(expected);

      await booted(page);
      await page.evaluate('PrivacyWidget.open()');
      await page.locator('[data-privacy-center] [data-consent-category]').first().waitFor();
      expect(await shown(page, '[data-privacy-center]')).toEqual(expected);

      await page.locator('[data-privacy-view="docs"]').click();
      const policy = page.locator('[data-privacy-center] li:has(> strong)');
      await policy.first().waitFor();
      expect(await policy.allInnerTexts()).toEqual(categories.map((c) => `${c.label}: ${c.description}`));
    },
  );
});
