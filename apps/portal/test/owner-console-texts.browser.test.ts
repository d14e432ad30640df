// The owner console's Texts (on Appearance): the owner picks a language, rewrites a widget text (the
// default shown under each field, right to left for Arabic), and Save texts sends the whole set of
// overrides through the property PUT; markup is refused in the browser; a VIEWER cannot save.
import type { Page } from 'playwright-core';
import { portalTestBed } from './support/browser';
import { checkScreen } from './support/screen';

const bed = portalTestBed();
const APPEARANCE = '/owner/domains/dom_0004/appearance';

async function open(page: Page) {
  await page.goto(bed.api.url(APPEARANCE));
  await page.getByRole('form', { name: 'Texts' }).waitFor();
}
const puts = () => bed.api.calls.filter((c) => c.operationId === 'updateOwnerProperty');
const texts = (page: Page) => page.getByRole('form', { name: 'Texts' });

describe('owner console: widget texts per language', () => {
  it('when the owner rewrites a German and an Arabic text, then Save texts sends both as text_overrides, and a reload shows them', async () => {
    const page = await bed.page({ userId: null, ownerId: 'own_shop' });
    await open(page);
    const form = texts(page);
    await form.locator('summary', { hasText: 'Consent notice' }).click(); // the group opens, and stays open across languages
    await form.getByLabel('Language').selectOption({ label: 'Deutsch' });
    await form.getByText('Default: Alle akzeptieren').waitFor();
    await form.getByLabel('Accept all', { exact: true }).fill('Alles klar');
    await form.getByLabel('Language').selectOption({ label: 'العربية' });
    expect(await form.getByLabel('Reject all', { exact: true }).getAttribute('dir')).toBe('rtl');
    expect(await form.getByLabel('Reject all', { exact: true }).getAttribute('lang')).toBe('ar');
    await form.getByLabel('Reject all', { exact: true }).fill('لا شكرًا');
    await checkScreen(bed, page, 'desktop-owner-texts');
    await form.getByRole('button', { name: 'Save texts' }).click();
    await form.getByRole('status').getByText('Saved. Visitors see the new texts on their next page view.').waitFor();
    expect(puts().map((c) => c.body)).toEqual([
      { text_overrides: { de: { acceptAll: 'Alles klar' }, ar: { rejectAll: 'لا شكرًا' } } },
    ]);
    await page.reload();
    await texts(page).getByLabel('Language').selectOption({ label: 'Deutsch' });
    expect(await texts(page).getByLabel('Accept all', { exact: true }).inputValue()).toBe('Alles klar');
  });

  it('when a text holds markup, then the field says so and nothing is sent', async () => {
    const page = await bed.page({ userId: null, ownerId: 'own_shop' });
    await open(page);
    const form = texts(page);
    await form.locator('summary', { hasText: 'Consent notice' }).click();
    await form.getByLabel('Ok', { exact: true }).fill('<b>OK</b>');
    await form.locator('summary', { hasText: 'Consent notice' }).click(); // closed again: the error opens it
    await form.getByRole('button', { name: 'Save texts' }).click();
    await form.getByText('may not contain < or > (plain text only)').waitFor();
    expect(await form.getByLabel('Ok', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    await page.waitForFunction("document.activeElement && document.activeElement.value === '<b>OK</b>'");
    expect(puts()).toEqual([]);
  });

  it('when a VIEWER opens it, then the texts are read-only with no Save texts', async () => {
    const page = await bed.page({ userId: null, ownerId: 'own_viewer' });
    await open(page);
    expect(await texts(page).getByLabel('Accept all', { exact: true }).isDisabled()).toBe(true);
    expect(await texts(page).getByRole('button', { name: 'Save texts' }).count()).toBe(0);
  });
});
