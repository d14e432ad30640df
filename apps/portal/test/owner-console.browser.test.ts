// The owner console (the customer's own account, another audience): its sign-in link redeemed once,
// its own guard and frame (the partner's name, the owner's e-mail, Sign out, no partner navigation),
// the home screen's snippets with copy and install steps in keyboard tabs, and its states; axe and a
// screenshot for each screen at 1280 px and on a 390 px phone.
import type { Page } from 'playwright-core';
import { DESKTOP, PHONE, portalTestBed, screenshot, seriousViolations, settled } from './support/browser';

const bed = portalTestBed();
const SNIPPET = '<script src="https://cdn.platform.example/widget/v1/prop_4/loader.js"></script>';

/** No serious axe violation, no sideways scrolling, no console error (a CSP breach among them). */
async function checkScreen(page: Page, name: string) {
  await settled(page);
  expect(await seriousViolations(page)).toEqual([]);
  const overflow = await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth');
  expect(overflow).toBe(0);
  expect(bed.consoleErrors).toEqual([]);
  await screenshot(page, name);
}

describe('owner console', () => {
  it('when the owner opens their link, then it is redeemed once, leaves the address bar, and the console shows their domain under the partner’s name', async () => {
    const token = bed.api.state.issueOwnerToken('own_shop');
    const page = await bed.page({ userId: null });
    await page.goto(bed.api.url(`/owner/sign-in#token=${token}`));
    await page.getByRole('heading', { level: 1, name: 'Install the widget' }).waitFor();
    // The company has one website: the console goes straight into it.
    expect(page.url()).toBe(bed.api.url('/owner/domains/dom_0004/install'));
    expect(bed.api.calls.filter((c) => c.operationId === 'createOwnerSession')).toEqual([
      expect.objectContaining({ method: 'post', body: { token } }),
    ]);
    const banner = page.getByRole('banner');
    await banner.getByText('Acme Hosting', { exact: true }).waitFor();
    await banner.getByText('olga@shop4.example.com').waitFor();
    const site = page.getByRole('region', { name: 'Widget snippet' });
    expect(await site.getByLabel('Widget snippet').textContent()).toBe(SNIPPET);
    await page.getByRole('navigation', { name: 'Website' }).getByText('shop4.example.com').waitFor();
    // Another audience: no partner navigation, and the partner session was never asked for.
    expect(await page.getByRole('navigation', { name: 'Main' }).count()).toBe(0);
    expect(bed.api.calls.some((c) => c.operationId === 'getSession')).toBe(false);
    await checkScreen(page, 'desktop-owner-install');
  });

  it('when the owner copies the snippet, then the clipboard holds it and the button says so', async () => {
    const page = await bed.page({ userId: null, ownerId: 'own_shop' });
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: bed.api.origin });
    await page.goto(bed.api.url('/owner'));
    const site = page.getByRole('region', { name: 'Widget snippet' });
    await site.getByRole('button', { name: 'Copy snippet' }).click();
    await site.getByRole('status').getByText('Copied').waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(SNIPPET);
  });

  it('when the install steps are used with the keyboard, then arrows, Home and End move between platforms as tabs', async () => {
    const page = await bed.page({ userId: null, ownerId: 'own_shop' });
    await page.goto(bed.api.url('/owner'));
    const tabs = page.getByRole('tablist', { name: 'Install steps for shop4.example.com' });
    const first = tabs.getByRole('tab', { name: 'Any site (HTML)' });
    expect(await first.getAttribute('aria-selected')).toBe('true');
    // One tab stop: Tab from the copy button reaches the selected tab only.
    await page.getByRole('button', { name: 'Copy snippet' }).focus();
    await page.keyboard.press('Tab');
    expect(await first.evaluate((el) => el === (el.ownerDocument.activeElement as unknown))).toBe(true);
    expect(await tabs.getByRole('tab', { name: 'WordPress' }).getAttribute('tabindex')).toBe('-1');

    const expectSelected = async (name: string, text: string) => {
      const tab = tabs.getByRole('tab', { name });
      expect(await tab.getAttribute('aria-selected')).toBe('true');
      expect(await tab.evaluate((el) => el === (el.ownerDocument.activeElement as unknown))).toBe(true);
      await page.getByRole('tabpanel', { name }).getByText(text).waitFor();
      expect(await page.getByRole('tabpanel').count()).toBe(1);
    };
    await page.keyboard.press('ArrowRight');
    await expectSelected('WordPress', 'header-code plugin');
    await page.keyboard.press('End');
    await expectSelected('Google Tag Manager', 'Support document.write');
    await checkScreen(page, 'desktop-owner-install-gtm');
    await page.keyboard.press('ArrowRight');
    await expectSelected('Any site (HTML)', 'right after the opening');
    await page.keyboard.press('ArrowLeft');
    await expectSelected('Google Tag Manager', 'Custom HTML');
    await page.keyboard.press('Home');
    await expectSelected('Any site (HTML)', 'before any other script');
    await tabs.getByRole('tab', { name: 'Shopify' }).click();
    await page.getByRole('tabpanel', { name: 'Shopify' }).getByText('layout/theme.liquid').waitFor();
  });

  it('when a link was already used, then the page says so and names the partner to ask for a new one', async () => {
    const token = bed.api.state.issueOwnerToken('own_shop');
    const page = await bed.page({ userId: null });
    await page.goto(bed.api.url(`/owner/sign-in#token=${token}`));
    await page.getByRole('heading', { name: 'Install the widget' }).waitFor();
    await page.context().clearCookies();
    await page.goto(bed.api.url(`/owner/sign-in#token=${token}`));
    await page
      .getByRole('alert')
      .getByText('This sign-in link has expired or was already used. Ask Acme Hosting for a new link.')
      .waitFor();
    expect(page.url()).toBe(bed.api.url('/owner/sign-in'));
    expect(bed.api.calls.filter((c) => c.operationId === 'createOwnerSession')).toHaveLength(2);
    await checkScreen(page, 'desktop-owner-used-link');
  });

  it('when the session has ended, then the console goes to its sign-in, which says so', async () => {
    const page = await bed.page({ userId: null, ownerId: 'own_shop' });
    await page.goto(bed.api.url('/owner'));
    await page.getByRole('heading', { name: 'Install the widget' }).waitFor();
    bed.api.state.ownerSessions.clear();
    await page.reload();
    await page.getByRole('alert').getByText('Your session has ended. Open a new sign-in link to continue.').waitFor();
    expect(page.url()).toBe(bed.api.url('/owner/sign-in'));
    await checkScreen(page, 'desktop-owner-session-ended');
  });

  it('when the owner signs out, then the session is deleted (with its CSRF token) and the sign-in page says so', async () => {
    const page = await bed.page({ userId: null, ownerId: 'own_shop' });
    await page.goto(bed.api.url('/owner'));
    const csrf = [...bed.api.state.ownerSessions.values()][0].csrf;
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('status').getByText('You are signed out.').waitFor();
    expect(bed.api.calls.filter((c) => c.operationId === 'deleteOwnerSession')).toEqual([
      expect.objectContaining({ csrf }),
    ]);
    expect(bed.api.state.ownerSessions.size).toBe(0);
    await page.goto(bed.api.url('/owner'));
    await page.getByText('Your session has ended').waitFor();
  });

  it('when an owner opens a partner screen, then the partner sign-in shows, not partner data', async () => {
    const page = await bed.page({ userId: null, ownerId: 'own_shop' });
    await page.goto(bed.api.url('/domains'));
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.getByText('Partner portal').waitFor();
    expect(page.url()).toBe(bed.api.url('/sign-in'));
    expect(bed.api.calls.some((c) => c.operationId === 'listDomains')).toBe(false);
  });

  it('when the company has no domain, then the home says so', async () => {
    const page = await bed.page({ userId: null, ownerId: 'own_empty' });
    await page.goto(bed.api.url('/owner'));
    await page.getByText('No websites yet').waitFor();
    await checkScreen(page, 'desktop-owner-home-empty');
  });

  it('when the session is slow, then the console says it is loading; when it fails, then Try again reads it again', async () => {
    let release = () => {};
    bed.api.held.set('getOwnerSession', new Promise<void>((resolve) => (release = resolve)));
    const page = await bed.page({ userId: null, ownerId: 'own_shop' });
    await page.goto(bed.api.url('/owner'));
    await page.getByRole('status').getByText('Loading your account…').waitFor();
    await screenshot(page, 'desktop-owner-loading');
    bed.api.held.clear();
    release();
    await page.getByRole('heading', { name: 'Install the widget' }).waitFor();

    bed.api.failing.set('getOwnerSession', 503);
    await page.reload();
    await page.getByRole('button', { name: 'Try again' }).waitFor({ timeout: 15_000 });
    await screenshot(page, 'desktop-owner-error');
    expect(await seriousViolations(page)).toEqual([]);
    bed.api.failing.clear();
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByRole('heading', { name: 'Install the widget' }).waitFor();
  });

  it('on a 390 px phone, the install screen and the sign-in fit the screen without serious axe violations', async () => {
    const page = await bed.page({ viewport: PHONE, userId: null, ownerId: 'own_shop' });
    await page.goto(bed.api.url('/owner'));
    await page.getByRole('heading', { name: 'Install the widget' }).waitFor();
    await page.getByRole('tab', { name: 'Google Tag Manager' }).click();
    await checkScreen(page, 'phone-owner-install');
    await page.context().clearCookies();
    await page.goto(bed.api.url('/owner/sign-in#token=made-up'));
    await page.getByText('This sign-in link has expired or was already used').waitFor();
    await checkScreen(page, 'phone-owner-used-link');
    await page.setViewportSize(DESKTOP);
  });

  it('when the owner asks for a link on the sign-in page of their domain, then the e-mailed link signs them in; a known and an unknown address get the same answer', async () => {
    const page = await bed.page({ userId: null });
    await page.goto(bed.api.url('/owner/sign-in?domain=dom_0004'));
    const form = page.locator('form');
    await form.getByRole('button', { name: 'Send me a sign-in link' }).click();
    await form.getByText('Enter your e-mail address, like name@company.com').waitFor();
    expect(bed.api.calls.some((c) => c.operationId === 'createOwnerSignInLink')).toBe(false);
    await checkScreen(page, 'desktop-owner-ask-link-invalid');

    const answers: string[] = [];
    for (const email of ['stranger@nowhere.example', ' Olga@Shop4.example.com ']) {
      await page.getByLabel('E-mail address').fill(email);
      await page.getByRole('button', { name: 'Send me a sign-in link' }).click();
      const status = page.getByRole('status').filter({ hasText: 'Check your e-mail' });
      await status.waitFor();
      answers.push((await status.textContent())!.replace(email.trim().toLowerCase(), '<address>'));
      if (answers.length === 1) await checkScreen(page, 'desktop-owner-link-sent');
      await page.getByRole('button', { name: 'Use another address' }).click();
    }
    expect(answers[0]).toBe(answers[1]);
    expect(bed.api.calls.filter((c) => c.operationId === 'createOwnerSignInLink').map((c) => c.body)).toEqual([
      { email: 'stranger@nowhere.example', domain_id: 'dom_0004' },
      { email: 'olga@shop4.example.com', domain_id: 'dom_0004' },
    ]);
    const token = bed.api.state.ownerLinksSent.get('olga@shop4.example.com');
    expect(bed.api.state.ownerLinksSent.has('stranger@nowhere.example')).toBe(false);
    await page.goto(bed.api.url(`/owner/sign-in#token=${token}`));
    await page.getByRole('heading', { level: 1, name: 'Install the widget' }).waitFor();
  });

  it('when too many links were asked for (429), then the page says so politely; on a phone too', async () => {
    bed.api.failNext('createOwnerSignInLink', 429, { 'Retry-After': '600' });
    const page = await bed.page({ viewport: PHONE, userId: null });
    await page.goto(bed.api.url('/owner/sign-in?domain=dom_0004'));
    await page.getByLabel('E-mail address').fill('olga@shop4.example.com');
    await page.getByRole('button', { name: 'Send me a sign-in link' }).click();
    await page
      .getByRole('alert')
      .getByText('You have asked for several links in a short time. Please wait a few minutes, then try again.')
      .waitFor();
    await checkScreen(page, 'phone-owner-ask-link-limited');
    await page.setViewportSize(DESKTOP);
  });

  it('when the sign-in page names no domain, then there is no form, only how links come', async () => {
    const page = await bed.page({ userId: null });
    await page.goto(bed.api.url('/owner/sign-in'));
    await page.getByText('You sign in with the link').waitFor();
    expect(await page.locator('form').count()).toBe(0);
  });
});
