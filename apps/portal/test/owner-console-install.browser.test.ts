// The owner console's websites and install check: the picker (several websites), going straight in with
// one, a website not in the account, the section navigation by keyboard, and the install check's loading
// state and its four outcomes with what to do; each screen at 1280 px and on a 390 px phone.
import { DESKTOP, PHONE, portalTestBed } from './support/browser';
import { checkScreen, hasFocus } from './support/screen';

const bed = portalTestBed();

describe('owner console: websites and install', () => {
  it('when the company has several websites, then the owner picks one, and can switch to another', async () => {
    const page = await bed.page({ userId: null, ownerId: 'own_multi' });
    await page.goto(bed.api.url('/owner'));
    await page.getByRole('heading', { level: 1, name: 'Your websites' }).waitFor();
    await checkScreen(bed, page, 'desktop-owner-websites');
    await page.getByRole('link', { name: /shop12\.example\.com/ }).click();
    await page.getByRole('heading', { level: 1, name: 'Install the widget' }).waitFor();
    expect(page.url()).toBe(bed.api.url('/owner/domains/dom_0012/install'));
    const nav = page.getByRole('navigation', { name: 'Website' });
    await nav.getByText('shop12.example.com').waitFor();
    await nav.getByRole('link', { name: 'Switch website' }).click();
    await page.getByRole('link', { name: /shop9\.example\.com/ }).click();
    await nav.getByText('shop9.example.com').waitFor();
    await page.setViewportSize(PHONE);
    await page.goto(bed.api.url('/owner'));
    await checkScreen(bed, page, 'phone-owner-websites');
    await page.setViewportSize(DESKTOP);
  });

  it('when the address names a website that is not in the account, then the console says so, and calls nothing for it', async () => {
    const page = await bed.page({ userId: null, ownerId: 'own_shop' });
    await page.goto(bed.api.url('/owner/domains/dom_0005/appearance'));
    await page.getByRole('heading', { level: 1, name: 'Website not found' }).waitFor();
    expect(bed.api.calls.some((c) => c.path.includes('dom_0005'))).toBe(false);
    await page.getByRole('link', { name: 'Go to your websites' }).click();
    await page.getByRole('heading', { level: 1, name: 'Install the widget' }).waitFor();
  });

  it('when the sections are used with the keyboard, then each is a link with aria-current, and focus moves to the new screen', async () => {
    const page = await bed.page({ userId: null, ownerId: 'own_shop' });
    await page.goto(bed.api.url('/owner/domains/dom_0004'));
    await page.getByRole('heading', { level: 1, name: 'Install the widget' }).waitFor();
    expect(page.url()).toBe(bed.api.url('/owner/domains/dom_0004/install'));
    const nav = page.getByRole('navigation', { name: 'Website' });
    expect(await nav.getByRole('link', { name: 'Install' }).getAttribute('aria-current')).toBe('page');
    // The skip link comes first and passes the navigation.
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.textContent')).toBe('Skip to content');
    await nav.getByRole('link', { name: 'Scan and cookies' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Scan and cookies' }).waitFor();
    expect(await hasFocus(page, '#main')).toBe(true);
    expect(await nav.getByRole('link', { name: 'Scan and cookies' }).getAttribute('aria-current')).toBe('page');
    expect(await nav.getByRole('link', { name: 'Install' }).getAttribute('aria-current')).toBeNull();
  });

  it('when the owner checks the installation, then it says it is reading the site, then that the widget is installed', async () => {
    let release = () => {};
    bed.api.held.set('checkOwnerInstall', new Promise<void>((resolve) => (release = resolve)));
    const page = await bed.page({ userId: null, ownerId: 'own_shop' });
    await page.goto(bed.api.url('/owner/domains/dom_0004/install'));
    await page.getByRole('button', { name: 'Check installation' }).click();
    await page.getByRole('status').getByText('Reading shop4.example.com…').waitFor();
    expect(await page.getByRole('button', { name: 'Checking…' }).isDisabled()).toBe(true);
    await page.getByRole('region', { name: 'Check the installation' }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${__dirname}/artifacts/desktop-owner-install-checking.png` });
    bed.api.held.clear();
    release();
    await page.getByRole('status').getByText('Check finished: The widget is installed.').waitFor();
    const result = page.getByRole('region', { name: 'Check the installation' });
    await result.getByText('The snippet is the first script in <head> of https://shop4.example.com/.').waitFor();
    await result.getByText('Nothing. Check again whenever').waitFor();
    expect(bed.api.calls.filter((c) => c.operationId === 'checkOwnerInstall')).toHaveLength(1);
    await checkScreen(bed, page, 'desktop-owner-install-installed');
  });

  const OUTCOMES = [
    ['NOT_FIRST_IN_HEAD', 'Not first in <head>', 'Move the snippet up, right after the opening'],
    ['NOT_FOUND', 'Not found', 'Paste the snippet into the'],
    ['UNREACHABLE', 'Unreachable', 'Make sure the home page opens in a browser'],
  ] as const;
  it.each(OUTCOMES)(
    'when the check finds %s, then the console says so with what to do (at 1280 px and on a phone)',
    async (status, label, todo) => {
      bed.api.state.ownerConsole.installStatus.set('dom_0004', status);
      const page = await bed.page({ userId: null, ownerId: 'own_shop' });
      for (const [viewport, name] of [
        [DESKTOP, 'desktop'],
        [PHONE, 'phone'],
      ] as const) {
        await page.setViewportSize(viewport);
        await page.goto(bed.api.url('/owner/domains/dom_0004/install'));
        await page.getByRole('button', { name: 'Check installation' }).click();
        const result = page.getByRole('region', { name: 'Check the installation' });
        await result.getByText(label, { exact: true }).waitFor();
        await result.getByText(todo).waitFor();
        await checkScreen(bed, page, `${name}-owner-install-${status.toLowerCase().replace(/_/g, '-')}`);
      }
      await page.setViewportSize(DESKTOP);
    },
  );

  it('when the check fails (503), then the error is said and the check can run again', async () => {
    bed.api.failing.set('checkOwnerInstall', 503);
    const page = await bed.page({ userId: null, ownerId: 'own_shop' });
    await page.goto(bed.api.url('/owner/domains/dom_0004/install'));
    await page.getByRole('button', { name: 'Check installation' }).click();
    await page.getByRole('alert').getByText('A service is unavailable right now.').waitFor({ timeout: 15_000 });
    bed.api.failing.clear();
    await page.getByRole('button', { name: 'Check installation' }).click();
    await page.getByText('Check finished: The widget is installed.').waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
  });
});
