// The owner console end to end: a partner provisions an access user for a domain with its API key,
// and real Chromium opens the returned sign_in_url through the real gateway: the console shows the
// partner's name and the domain's snippet, and the owner's session opens no partner screen.
import { randomUUID } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { launchChromium } from '@platform/testing';
import { checkScreen, newPortalPage, portalUrl } from './support/portal-browser';
import { sharedSystem, type Partner, type System } from './support/system';

const SUFFIX = randomUUID().slice(0, 8);

describe('the owner console (Chromium, real platform)', () => {
  let sys: System;
  let partner: Partner;
  let browser: Browser;
  const partnerName = `Console Partner ${SUFFIX}`;

  beforeAll(async () => {
    sys = await sharedSystem();
    partner = await sys.partner(partnerName);
    browser = await launchChromium([]);
  });
  afterAll(async () => {
    await browser?.close();
    await sys?.close();
  });

  it("when an access user provisioned with the partner's key opens the link, then the console shows the partner's name and the domain's snippet, and no partner screen", async () => {
    const hostname = `console-${SUFFIX}.example.com`;
    const created = await sys.arrange(partner, 'POST', '/portal/domains', {
      domain: hostname,
      company_name: `Console ${SUFFIX}`,
      account_email: `owner@${hostname}`,
      company_setup: true,
    });
    const domain = created.body.result as { id: string; privacy_widget: string };
    const provisioned = await sys.call(
      partner,
      'POST',
      `/portal/instance/access/users/provision?domain_id=${domain.id}`,
      {
        email: `olga@${hostname}`,
        role: 'OWNER',
        name: 'Olga',
      },
    );
    expect(provisioned.status).toBe(200);
    const link = provisioned.body.result.sign_in_url as string;
    expect(link.startsWith(portalUrl(sys, '/owner/sign-in#token='))).toBe(true);

    const page = await newPortalPage(browser);
    await page.goto(link);
    // One website: the console opens on its install screen.
    await page.getByRole('heading', { level: 1, name: 'Install the widget' }).waitFor();
    expect(page.url()).toBe(portalUrl(sys, `/owner/domains/${domain.id}/install`));
    await page.getByRole('banner').getByText(partnerName, { exact: true }).waitFor();
    await page.getByRole('banner').getByText(`olga@${hostname}`).waitFor();
    expect(await page.locator('pre[aria-label="Widget snippet"]').textContent()).toBe(domain.privacy_widget);
    await page.getByRole('tab', { name: 'Google Tag Manager' }).click();
    await checkScreen(page, 'owner-home');

    // The owner's session is not a partner session: the partner portal asks to sign in and shows no data.
    await page.goto(portalUrl(sys, '/domains'));
    await page.getByRole('heading', { name: 'Sign in', exact: true }).waitFor();
    expect(page.url()).toBe(portalUrl(sys, '/sign-in'));
    expect(await page.getByText(hostname).count()).toBe(0);
    await checkScreen(page, 'owner-at-partner-sign-in');

    // The link was single use: opened again it says so, naming the partner.
    await page.context().clearCookies();
    await page.goto(link);
    await page.getByText(`Ask ${partnerName} for a new link.`).waitFor();
    await page.context().close();
  });
});
