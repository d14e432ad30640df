// Getting around: the navigation by keyboard, what each role sees, and the phone layout's menu.
import { PHONE, portalTestBed, screenshot, seriousViolations } from './support/browser';

const bed = portalTestBed();
const focusedText = (page: import('playwright-core').Page) =>
  page.evaluate('document.activeElement && document.activeElement.textContent') as Promise<string>;

describe('navigation', () => {
  it('when the keyboard is used, then the skip link comes first, Tab walks the nav in order and Enter opens a screen', async () => {
    const page = await bed.page();
    await page.goto(bed.api.url('/'));
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    await page.keyboard.press('Tab');
    expect(await focusedText(page)).toBe('Skip to content');
    const seen: string[] = [];
    for (let i = 0; i < 4; i++) {
      await page.keyboard.press('Tab');
      seen.push(await focusedText(page));
    }
    expect(seen).toEqual(['Dashboard', 'Domains', 'Merchants', 'API keys']);
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Domains' }).waitFor();
    expect(await page.getByRole('link', { name: 'Domains', exact: true }).getAttribute('aria-current')).toBe('page');
    // Focus moves to the new screen, so the next Tab starts in its content.
    expect(await page.evaluate('document.activeElement.id')).toBe('main');
  });

  it('when a developer signs in, then the nav leaves out the team, audit log and domain deletion', async () => {
    const page = await bed.page({ userId: 'usr_dev' });
    await page.goto(bed.api.url('/domains/dom_0004'));
    await page.getByRole('heading', { level: 1, name: 'shop4.example.com' }).waitFor();
    const nav = page.getByRole('navigation', { name: 'Main' });
    const links = await nav.getByRole('link').allTextContents();
    expect(links).toEqual([
      'Dashboard',
      'Domains',
      'Merchants',
      'API keys',
      'Webhooks',
      'E-mail templates',
      'Settings',
      'Your profile and 2FA',
    ]);
    expect(await page.getByRole('button', { name: 'Delete' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Scan now' }).waitFor();
  });

  it('when the screen is a 390 px phone, then the nav hides behind a Menu button that opens and closes it', async () => {
    const page = await bed.page({ viewport: PHONE });
    await page.goto(bed.api.url('/'));
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    const menu = page.getByRole('button', { name: 'Menu' });
    const nav = page.getByRole('navigation', { name: 'Main' });
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    expect(await nav.isVisible()).toBe(false);
    await menu.click();
    expect(await menu.getAttribute('aria-expanded')).toBe('true');
    await nav.getByRole('link', { name: 'Webhooks' }).waitFor();
    await screenshot(page, 'phone-menu-open');
    expect(await seriousViolations(page)).toEqual([]);
    await nav.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
    expect(await nav.isVisible()).toBe(false);
  });

  it('when the session ends while working, then the next call sends the user to sign in with a notice', async () => {
    const page = await bed.page();
    await page.goto(bed.api.url('/'));
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    bed.api.state.sessions.clear();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Merchants' }).click();
    await page.getByText('Your session has ended. Sign in again.').waitFor();
    expect(new URL(page.url()).pathname).toBe('/app/sign-in');
  });
});
