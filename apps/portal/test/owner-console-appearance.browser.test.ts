// The owner console's Appearance: the live preview follows the form as the owner types (the widget's own
// colour rules included), Save sends only what changed and says so, a schema error stays in the browser,
// unsaved changes are guarded, a VIEWER sees it read-only, and the loading and error states.
import type { Page } from 'playwright-core';
import { DESKTOP, PHONE, portalTestBed } from './support/browser';
import { checkScreen } from './support/screen';

const bed = portalTestBed();
const APPEARANCE = '/owner/domains/dom_0004/appearance';

async function open(page: Page) {
  await page.goto(bed.api.url(APPEARANCE));
  await page.getByRole('heading', { level: 1, name: 'Appearance' }).waitFor();
  await page.getByLabel('Primary colour', { exact: true }).waitFor();
}
/** A computed style of the preview's first element matching `selector`. */
const previewStyle = (page: Page, selector: string, property: string) =>
  page
    .locator(`.wp-stage ${selector}`)
    .first()
    .evaluate((el, p) => el.ownerDocument.defaultView!.getComputedStyle(el).getPropertyValue(p), property);
const puts = () => bed.api.calls.filter((c) => c.operationId === 'updateOwnerProperty');

describe('owner console: appearance', () => {
  it('when the owner edits the look and features, then the preview follows as they type, and Save sends only the changes', async () => {
    const page = await bed.page({ userId: null, ownerId: 'own_shop' });
    await open(page);
    expect(await previewStyle(page, '.wp-btn', 'background-color')).toBe('rgb(26, 86, 219)');
    await checkScreen(bed, page, 'desktop-owner-appearance');

    await page.getByLabel('Primary colour', { exact: true }).fill('#0a7a3b');
    expect(await previewStyle(page, '.wp-btn', 'background-color')).toBe('rgb(10, 122, 59)');
    await page.getByRole('radio', { name: 'Bottom left' }).check();
    expect(await page.locator('.wp-classic').getAttribute('class')).toContain('wp-left');
    await page.getByLabel('Corner radius').fill('16');
    expect(await previewStyle(page, '.wp-btn', 'border-radius')).toBe('16px');
    await page.getByLabel('Font', { exact: true }).selectOption({ label: 'Georgia (serif)' });
    expect(await previewStyle(page, '.wp', 'font-family')).toMatch(/^Georgia, serif/);
    await page.getByLabel(/Privacy requests/).uncheck();
    await page.getByLabel('Which notice visitors get').selectOption('OPT_IN');
    expect(await page.getByLabel('Ask again after').inputValue()).toBe('365');
    await page.getByLabel('Ask again after').selectOption({ label: '13 months' });
    await page.getByLabel(/Pass ad click information in links/).check();
    await page.getByRole('tab', { name: 'Privacy center' }).click();
    await page.locator('.wp-tab', { hasText: 'Policies' }).waitFor();
    expect(await page.locator('.wp-tab', { hasText: 'Requests' }).count()).toBe(0);
    await page.getByText('You have unsaved changes.').waitFor();
    await checkScreen(bed, page, 'desktop-owner-appearance-center');

    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('status').getByText('Saved. Visitors see the new look on their next page view.').waitFor();
    expect(puts().map((c) => c.body)).toEqual([
      {
        primary_color: '#0a7a3b',
        widget_position: 'BOTTOM_LEFT',
        border_radius: '16px',
        widget_font: 'Georgia, serif',
        has_dsar: false,
        regime: 'OPT_IN',
        consent_max_age_days: 395,
        url_passthrough: true,
      },
    ]);
    expect(puts()[0].csrf).toBe([...bed.api.state.ownerSessions.values()][0].csrf);
    await page.getByText('No unsaved changes.').waitFor();
    // What was saved is what the API now answers: a reload shows it.
    await page.reload();
    await page.getByLabel('Primary colour', { exact: true }).waitFor();
    expect(await page.getByLabel('Primary colour', { exact: true }).inputValue()).toBe('#0a7a3b');
    expect(await page.getByRole('radio', { name: 'Bottom left' }).isChecked()).toBe(true);
  });

  it('when a colour is too light for the widget, then the preview shows what the widget will do, and the field says why', async () => {
    const page = await bed.page({ userId: null, ownerId: 'own_shop' });
    await open(page);
    await page.getByLabel('Primary colour', { exact: true }).fill('#ffd700');
    await page.getByText('Buttons get black text: it reads better on this colour.').waitFor();
    expect(await previewStyle(page, '.wp-btn', 'color')).toBe('rgb(0, 0, 0)');
    await page.getByLabel('Primary colour', { exact: true }).fill('#0a7a3b');
    expect(await previewStyle(page, '.wp-btn', 'color')).toBe('rgb(255, 255, 255)');
    await page.getByText('Buttons and switches. Like #1a56db.').waitFor();
    await page.getByLabel('Text colour', { exact: true }).fill('#aaaaaa');
    await page.getByText('Too light to read on white: the widget uses #1f2937 instead.').waitFor();
    expect(await previewStyle(page, '.wp', 'color')).toBe('rgb(31, 41, 55)');
  });

  it('when a value breaks the contract’s rules, then the field says so and nothing is sent', async () => {
    const page = await bed.page({ userId: null, ownerId: 'own_shop' });
    await open(page);
    await page.getByLabel('Primary colour', { exact: true }).fill('blue');
    // The preview, like the widget, falls back to its default colour.
    expect(await previewStyle(page, '.wp-btn', 'background-color')).toBe('rgb(26, 86, 219)');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('must be a hex color like #1a2b3c').waitFor();
    expect(await page.getByLabel('Primary colour', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    expect(puts()).toEqual([]);
    await page.getByLabel('Primary colour', { exact: true }).fill('#123');
    expect(await page.getByText('must be a hex color like #1a2b3c').count()).toBe(0);
  });

  it('when the owner leaves with unsaved changes, then the console asks first; Keep editing stays, Discard leaves', async () => {
    const page = await bed.page({ userId: null, ownerId: 'own_shop' });
    await open(page);
    await page.getByLabel('Primary colour', { exact: true }).fill('#aa0000');
    const nav = page.getByRole('navigation', { name: 'Website' });
    await nav.getByRole('link', { name: 'Company' }).click();
    const dialog = page.getByRole('dialog', { name: 'Leave without saving?' });
    await dialog.getByText('Your changes to the appearance are not saved yet.').waitFor();
    await checkScreen(bed, page, 'desktop-owner-appearance-leave');
    await dialog.getByRole('button', { name: 'Keep editing' }).click();
    expect(page.url()).toBe(bed.api.url(APPEARANCE));
    expect(await page.getByLabel('Primary colour', { exact: true }).inputValue()).toBe('#aa0000');
    await nav.getByRole('link', { name: 'Company' }).click();
    await dialog.getByRole('button', { name: 'Discard changes' }).click();
    await page.getByRole('heading', { level: 1, name: 'Company' }).waitFor();
    expect(puts()).toEqual([]);
  });

  it('when a VIEWER opens it, then the form is read-only with no Save, and the preview still shows the look', async () => {
    const page = await bed.page({ userId: null, ownerId: 'own_viewer' });
    await open(page);
    await page.getByText('You can look, not change: ask an admin or the owner of your account.').waitFor();
    expect(await page.getByLabel('Primary colour', { exact: true }).isDisabled()).toBe(true);
    expect(await page.getByLabel(/Privacy requests/).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Save changes' }).count()).toBe(0);
    expect(await previewStyle(page, '.wp-btn', 'background-color')).toBe('rgb(26, 86, 219)');
    await checkScreen(bed, page, 'desktop-owner-appearance-viewer');
    await page.setViewportSize(PHONE);
    await checkScreen(bed, page, 'phone-owner-appearance-viewer');
    await page.setViewportSize(DESKTOP);
    expect(puts()).toEqual([]);
  });

  it('on a 390 px phone, the form and its preview fit, and a save works', async () => {
    const page = await bed.page({ viewport: PHONE, userId: null, ownerId: 'own_admin' });
    await open(page);
    await checkScreen(bed, page, 'phone-owner-appearance');
    await page.getByRole('radio', { name: 'Bottom left' }).check();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Saved. Visitors see the new look on their next page view.').waitFor();
    expect(puts().map((c) => c.body)).toEqual([{ widget_position: 'BOTTOM_LEFT' }]);
    await page.setViewportSize(DESKTOP);
  });

  it('when the settings are slow, then the screen says it is loading; when they fail, then Try again reads them again', async () => {
    let release = () => {};
    bed.api.held.set('getOwnerProperty', new Promise<void>((resolve) => (release = resolve)));
    const page = await bed.page({ userId: null, ownerId: 'own_shop' });
    await page.goto(bed.api.url(APPEARANCE));
    await page.getByRole('status').getByText('Loading the widget’s settings…').waitFor();
    await page.screenshot({ path: `${__dirname}/artifacts/desktop-owner-appearance-loading.png` });
    bed.api.held.clear();
    release();
    await page.getByLabel('Primary colour', { exact: true }).waitFor();
    bed.api.failing.set('getOwnerProperty', 503);
    await page.reload();
    await page.getByRole('button', { name: 'Try again' }).waitFor({ timeout: 15_000 });
    await checkScreen(bed, page, 'desktop-owner-appearance-error');
    bed.api.failing.clear();
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByLabel('Primary colour', { exact: true }).waitFor();
  });

  it('when the role was lowered meanwhile (403) or the website left the account (404), then the screen says so in words', async () => {
    const page = await bed.page({ userId: null, ownerId: 'own_admin' });
    await open(page);
    bed.api.state.ownerUsers.get('own_admin')!.role = 'VIEWER';
    await page.getByRole('radio', { name: 'Bottom left' }).check();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page
      .getByRole('alert')
      .getByText('Your role in this account does not allow this. Ask an admin or the owner of your account.')
      .waitFor();
    expect(puts().map((c) => c.body)).toEqual([{ widget_position: 'BOTTOM_LEFT' }]);

    await page.getByRole('button', { name: 'Discard' }).click();
    // The website leaves the account while the console is open (the session read before still lists it).
    bed.api.state.domains.find((d) => d.id === 'dom_0004')!.instance_company_id = 'comp_elsewhere';
    await page.getByRole('navigation', { name: 'Website' }).getByRole('link', { name: 'Company' }).click();
    await page
      .getByRole('alert')
      .getByText('Not found. It may have been deleted, or it belongs to another account.')
      .waitFor();
    await checkScreen(bed, page, 'desktop-owner-company-not-found');
  });
});
