// The registration widget, end to end on the shared platform: a partner turns it on for its panel's
// origin, a page on that origin (a local server, mapped to 127.0.0.1 in Chromium) embeds the
// script the gateway serves, a customer fills it in, and the e-mailed link (from the mail catcher)
// opens the gateway's confirmation page, which registers the website under that partner.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { startWebhookReceiver, type WebhookReceiver } from '@platform/launcher';
import { launchChromium, newVisitor, saveScreenshot, waitFor } from '@platform/testing';
import {
  embeddingPage,
  onboardingAxeViolations,
  partnerAdmin,
  partnerSite,
  type PartnerSite,
} from './support/onboarding';
import { envelope, sharedSystem, type Partner, type System } from './support/system';

const ARTIFACTS = path.resolve(__dirname, '../artifacts');
const SUFFIX = randomUUID().slice(0, 8);
/** The partner's panel, and the customers' sites registered there. */
const PANEL = `panel-${SUFFIX}.example.com`;
const SITES = `reg-${SUFFIX}.example.com`;
const CONFIRM_LINK = /http:\/\/[^\s"<>]+\/widget\/v1\/onboarding\/confirm#partner=[\w-]+&token=([\w-]+)/;

describe('the registration widget on a partner page (Chromium)', () => {
  let sys: System;
  let partner: Partner;
  let site: PartnerSite;
  let browser: Browser;
  let receiver: WebhookReceiver;
  let panelOrigin: string;
  const base = (p: Partner) => `/widget/v1/onboarding/${p.id}`;
  const register = (p: Partner, body: Record<string, unknown>, origin = panelOrigin) =>
    sys.call(undefined, 'POST', `${base(p)}/registrations`, body, { origin });
  const registration = (label: string, extra: Record<string, unknown> = {}) => ({
    domain: `https://${label}.${SITES}/shop`,
    company_name: `Shop ${label} Ltd`,
    account_first_name: 'Rita',
    account_last_name: 'Register',
    account_email: `rita-${label}@${SITES}`,
    ...extra,
  });
  const confirmLinkFor = async (email: string) => {
    const mail = await sys.smtp.waitForMessage((m) => m.to.includes(email) && CONFIRM_LINK.test(m.decoded), 15_000);
    return { mail, link: CONFIRM_LINK.exec(mail.decoded)![0], token: CONFIRM_LINK.exec(mail.decoded)![1] };
  };
  const domainsOf = async (p: Partner, hostname: string) =>
    (await sys.arrange(p, 'GET', `/portal/domains?search=${hostname}`)).body.result as Record<string, unknown>[];

  beforeAll(async () => {
    sys = await sharedSystem();
    receiver = await startWebhookReceiver();
    site = await partnerSite();
    panelOrigin = site.origin(PANEL);
    partner = await sys.partner(`Acme Hosting ${SUFFIX}`);
    await sys.arrange(partner, 'POST', '/portal/webhooks', {
      url: `${receiver.url}/registrations`,
      events: ['domain.created'],
    });
    const admin = await partnerAdmin(sys, partner);
    const saved = await admin.widgets({
      registration: { enabled: true, allowed_origins: [`${panelOrigin}/`], primary_color: '#0E7C3A' },
    });
    // The origin as a browser sends it, the colour as stored.
    expect(saved.onboarding_widgets.registration).toEqual({
      enabled: true,
      allowed_origins: [panelOrigin],
      primary_color: '#0e7c3a',
    });
    browser = await launchChromium([PANEL, SITES]);
  });
  afterAll(async () => {
    await browser?.close();
    await site?.close();
    await receiver?.close();
    await sys?.close();
  });

  it('when a customer registers on the partner page and opens the e-mailed link, then the website is registered once, with source WIDGET_REGISTRATION, the merchant and domain.created', async () => {
    const script = `${sys.gateway}/widget/v1/onboarding/registration.js`;
    const url = site.page(
      PANEL,
      embeddingPage(script, { 'data-partner': partner.id, 'data-merchant': 'm-42' }, 'registration'),
    );
    const page = await (await newVisitor(browser)).newPage();
    await page.goto(url);
    await page.getByRole('heading', { name: 'Register your website' }).waitFor();
    expect(await page.getByText(`With Acme Hosting ${SUFFIX}`).count()).toBe(1);
    expect(await onboardingAxeViolations(page)).toEqual([]);

    // Required fields are checked before anything is sent; the server's rules show at their field.
    await page.getByRole('button', { name: 'Register' }).click();
    await page.getByText('Please correct the 5 marked fields.').waitFor();
    expect(await page.getByLabel('Website', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    await page.getByLabel('Website', { exact: true }).fill('not a website');
    await page.getByLabel('Company name', { exact: true }).fill('Shop Widget Ltd');
    await page.getByLabel('First name', { exact: true }).fill('Wanda');
    await page.getByLabel('Last name', { exact: true }).fill('Widget');
    await page.getByLabel('E-mail address', { exact: true }).fill(`wanda@${SITES}`);
    await page.getByRole('button', { name: 'Register' }).click();
    await page.getByText('Website must not contain spaces.').waitFor();
    expect(await onboardingAxeViolations(page)).toEqual([]);
    await saveScreenshot(page, ARTIFACTS, 'onboarding-registration-errors');

    const hostname = `widget.${SITES}`;
    await page.getByLabel('Website', { exact: true }).fill(`https://${hostname}/`);
    await page.getByRole('button', { name: 'Register' }).click();
    await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();
    expect(await domainsOf(partner, hostname)).toEqual([]); // nothing before the link is opened

    const { mail, link } = await confirmLinkFor(`wanda@${SITES}`);
    expect(mail.subject).toBe(`Acme Hosting ${SUFFIX}: confirm the registration of ${hostname}`);
    const confirm = await (await newVisitor(browser)).newPage();
    await confirm.goto(link);
    await confirm.getByRole('heading', { name: 'Your website is registered' }).waitFor();
    expect(new URL(confirm.url()).hash).toBe(''); // the token left the address bar
    expect(await onboardingAxeViolations(confirm)).toEqual([]);
    await saveScreenshot(confirm, ARTIFACTS, 'onboarding-registration-confirmed');

    const [domain] = await domainsOf(partner, hostname);
    expect(domain).toMatchObject({ hostname, source: 'WIDGET_REGISTRATION', status: 'NEW', merchants: ['m-42'] });
    const snippet = await confirm.getByLabel('Widget snippet').textContent();
    expect(snippet).toBe(
      `<script src="${sys.gateway}/widget/v1/${String(domain.instance_property_id)}/loader.js"></script>`,
    );
    // The owner goes on to the site's console from here (its sign-in, as the owner e-mails' approval_url).
    const consoleLink = confirm.getByRole('link', { name: 'Open your account console' });
    expect(await consoleLink.getAttribute('href')).toBe(`${sys.gateway}/app/owner/sign-in?domain=${String(domain.id)}`);
    const hook = await waitFor(
      () => receiver.received.find((r) => r.path === '/registrations' && r.body.includes(hostname)),
      { timeoutMs: 15_000, what: 'domain.created webhook' },
    );
    expect(JSON.parse(hook.body)).toMatchObject({
      event: 'domain.created',
      params: { domain: hostname, source: 'WIDGET_REGISTRATION', account_email: `wanda@${SITES}`, merchant_id: 'm-42' },
    });

    // The link opened again (a second tab, a mail scanner): the same answer, nothing more made.
    const again = await (await newVisitor(browser)).newPage();
    await again.goto(link);
    await again.getByRole('heading', { name: 'Your website is registered' }).waitFor();
    expect(await domainsOf(partner, hostname)).toHaveLength(1);
  });

  it('when the page is on another origin, the widget is off or the partner unknown, then 403 WIDGET.ORIGIN_NOT_ALLOWED (no CORS), 403 WIDGET.DISABLED or 404', async () => {
    const config = `${base(partner)}/registration`;
    const allowed = await sys.call(undefined, 'GET', config, undefined, { origin: panelOrigin });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(panelOrigin);
    expect(allowed.body.result).toEqual({
      partner_name: `Acme Hosting ${SUFFIX}`,
      primary_color: '#0e7c3a',
      required_fields: [],
    });
    const preflight = await sys.call(undefined, 'OPTIONS', `${base(partner)}/registrations`, undefined, {
      origin: panelOrigin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type',
    });
    expect([preflight.status, preflight.headers.get('access-control-allow-origin')]).toEqual([204, panelOrigin]);

    for (const origin of [site.origin(`evil-${SUFFIX}.example.net`), `${panelOrigin}.evil.net`, 'null']) {
      const foreign = await register(partner, registration('foreign'), origin);
      expect([foreign.status, foreign.body]).toEqual([403, envelope('WIDGET.ORIGIN_NOT_ALLOWED', 403)]);
      expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    }
    const other = await sys.partner();
    const admin = await partnerAdmin(sys, other);
    await admin.widgets({ registration: { enabled: false, allowed_origins: [panelOrigin], primary_color: null } });
    const off = await register(other, registration('off'));
    expect([off.status, off.body]).toEqual([403, envelope('WIDGET.DISABLED', 403)]);
    expect(off.headers.get('access-control-allow-origin')).toBe(panelOrigin);
    const nobody = await register({ ...other, id: randomUUID() }, registration('nobody'));
    expect([nobody.status, nobody.body]).toEqual([404, envelope('RESOURCE.NOT_FOUND', 404)]);
  });

  it('when the registration breaks the create rules, then 400 VALIDATION.INVALID names each field, readable by the page', async () => {
    const bad = await register(partner, {
      domain: 'localhost',
      company_name: '',
      account_first_name: 'Rita',
      account_email: 'not-an-address',
      country: 'XX',
    });
    expect([bad.status, bad.body]).toEqual([400, envelope('VALIDATION.INVALID', 400)]);
    expect(bad.headers.get('access-control-allow-origin')).toBe(panelOrigin);
    const paths = (bad.body.error.data.issues as { path: string }[]).map((i) => i.path).sort();
    expect(paths).toEqual([
      'body.account_email',
      'body.account_last_name',
      'body.company_name',
      'body.country',
      'body.domain',
    ]);
  });

  it("when the partner's onboarding settings require a phone number, then the widget says so and a registration without one is 400", async () => {
    const strict = await sys.partner(`Strict ${SUFFIX}`, []);
    await sys.admin('partner', 'update', '--partner', strict.id, '--require-fields', 'phone_number');
    const admin = await partnerAdmin(sys, strict);
    await admin.widgets({ registration: { enabled: true, allowed_origins: [panelOrigin], primary_color: null } });
    const config = await sys.call(undefined, 'GET', `${base(strict)}/registration`, undefined, { origin: panelOrigin });
    expect(config.body.result.required_fields).toEqual(['phone_number']);
    const missing = await register(strict, registration('phone'));
    expect(missing.body.error.data.issues).toEqual([
      { path: 'body.phone_number', message: 'is required by the onboarding settings' },
    ]);
    expect((await register(strict, registration('phone', { phone_number: '+49 30 1234567' }))).status).toBe(202);
  });

  it('when one address asks for a fourth link within the hour, then 429 with Retry-After; a made-up token and a registered website are refused', async () => {
    const same = { account_email: `busy@${SITES}` };
    for (const label of ['busy1', 'busy2', 'busy3'])
      expect((await register(partner, registration(label, same))).status).toBe(202);
    const fourth = await register(partner, registration('busy4', same));
    expect([fourth.status, fourth.body]).toEqual([429, envelope('RATE.LIMITED', 429)]);
    expect(Number(fourth.headers.get('retry-after'))).toBeGreaterThan(0);

    const { token } = await confirmLinkFor(`busy@${SITES}`);
    const confirm = (t: string) =>
      sys.call(undefined, 'POST', `${base(partner)}/registrations/confirm`, { token: t }, { origin: sys.gateway });
    const madeUp = await confirm(`${token.slice(0, -4)}AAAA`);
    expect([madeUp.status, madeUp.body]).toEqual([404, envelope('REGISTRATION.LINK_INVALID', 404)]);
    const first = await confirm(token);
    expect(first.status).toBe(200);
    const hostname = String(first.body.result.hostname);
    const again = await register(partner, registration(hostname.split('.')[0]));
    expect([again.status, again.body]).toEqual([409, envelope('DOMAIN.ALREADY_EXISTS', 409)]);
    expect(again.body.error.data).toBeUndefined(); // a stranger learns no domain id
  });
});
