// The site owner's whole first visit, as a person makes it, through the real gateway and services:
// the partner invites the owner; the invitation's approval_url (read from the mail catcher) opens
// the console's sign-in, which e-mails a link; the console copies the snippet, the owner puts it on
// their site (the shared platform's local web), the install check reads the site and says it is
// installed; the owner changes the widget's colour, and the widget on their site shows it.
import { randomUUID } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { computedStyle, launchChromium, newVisitor, widgetBooted } from '@platform/testing';
import { checkScreen, portalUrl } from './support/portal-browser';
import { LOCAL_SITES, localSiteUrl, writeLocalSite } from './support/shared-platform';
import { sharedSystem, type Partner, type System } from './support/system';

const SUFFIX = randomUUID().slice(0, 8);
const APPROVAL_URL = /http:\/\/[^\s"<>]+\/owner\/sign-in\?domain=[\w-]+/;
const OWNER_LINK = /http:\/\/[^\s"<>]+\/owner\/sign-in#token=[\w.~-]+/;
const GREEN = '#0a7a3b';

/** The owner's home page: what they paste first in <head>, then their own page. */
const homePage = (snippet: string) =>
  `<!doctype html><html lang="en"><head>${snippet}<meta charset="utf-8"><title>Bakery</title></head>` +
  '<body><main><h1>Bakery</h1><p>Fresh bread.</p></main></body></html>';

describe("the site owner's first visit (Chromium, real platform)", () => {
  let sys: System;
  let partner: Partner;
  let browser: Browser;
  const partnerName = `Journey Hosting ${SUFFIX}`;
  const hostname = `bakery-${SUFFIX}.${LOCAL_SITES}`;
  const owner = `owner@bakery-${SUFFIX}.example.com`;

  beforeAll(async () => {
    sys = await sharedSystem();
    partner = await sys.partner(partnerName);
    browser = await launchChromium([LOCAL_SITES]);
  });
  afterAll(async () => {
    await browser?.close();
    await sys?.close();
  });

  it('when the owner follows the invitation, then they sign in, install the snippet, pass the install check and see their colour in the widget', async () => {
    const created = await sys.arrange(partner, 'POST', '/portal/domains', {
      domain: hostname,
      company_name: `Bakery ${SUFFIX}`,
      account_email: owner,
      company_setup: true,
      action: 'CREATE_SILENT',
    });
    const domain = created.body.result as { id: string; privacy_widget: string };
    await sys.arrange(partner, 'POST', `/portal/domains/${domain.id}/invite`, { send_invite: true });
    const invitation = await sys.smtp.waitForMessage(
      (m) => m.to.includes(owner) && APPROVAL_URL.test(m.decoded),
      15_000,
    );

    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: sys.gateway });
    const page = await context.newPage();
    await page.goto(APPROVAL_URL.exec(invitation.decoded)![0]);
    await page.getByRole('heading', { level: 1, name: 'Sign in to your account' }).waitFor();
    await page.getByLabel('E-mail address').fill(owner);
    await page.getByRole('button', { name: 'Send me a sign-in link' }).click();
    const linkMail = await sys.smtp.waitForMessage((m) => m.to.includes(owner) && OWNER_LINK.test(m.decoded), 15_000);
    expect(linkMail.subject).toBe(`${partnerName}: your sign-in link to your account console`);

    // One website: the console opens on its install screen, under the partner's name.
    await page.goto(OWNER_LINK.exec(linkMail.decoded)![0]);
    await page.getByRole('heading', { level: 1, name: 'Install the widget' }).waitFor();
    expect(page.url()).toBe(portalUrl(sys, `/owner/domains/${domain.id}/install`));
    await page.getByRole('banner').getByText(partnerName, { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Copy snippet' }).first().click();
    const copied = (await page.evaluate('navigator.clipboard.readText()')) as string;
    expect(copied).toBe(domain.privacy_widget);

    // Before the snippet is on the site the check says so; after, it passes.
    await writeLocalSite(hostname, homePage(''));
    await page.getByRole('button', { name: 'Check installation' }).click();
    await page
      .getByRole('status')
      .getByText('Check finished: The snippet is not on the home page.')
      .waitFor({ timeout: 30_000 });
    await writeLocalSite(hostname, homePage(copied));
    await page.getByRole('button', { name: 'Check installation' }).click();
    await page.getByRole('status').getByText('Check finished: The widget is installed.').waitFor({ timeout: 30_000 });
    await checkScreen(page, 'owner-journey-installed');

    await page.getByRole('navigation', { name: 'Website' }).getByRole('link', { name: 'Appearance' }).click();
    await page.getByRole('heading', { level: 1, name: 'Appearance' }).waitFor();
    await page.getByLabel('Primary colour', { exact: true }).fill(GREEN);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('status').getByText('Saved.', { exact: false }).waitFor();
    await checkScreen(page, 'owner-journey-appearance-saved');
    await context.close();

    // A visitor of the owner's site sees the widget in the owner's colour.
    const visitor = await newVisitor(browser);
    const site = await visitor.newPage();
    await site.goto(await localSiteUrl(hostname));
    await widgetBooted(site);
    const accept = site.locator('[data-consent-action="accept"]');
    await accept.waitFor();
    expect(await computedStyle(accept, ['backgroundColor'])).toEqual(['rgb(10, 122, 59)']);
    await visitor.close();
  });
});
