// The partner portal end to end: real Chromium opens http://<gateway>/app/ on the shared platform
// (gateway sessions, the services, PostgreSQL, RabbitMQ, the mail path to the local SMTP catcher)
// and does what a partner's people do there, by the roles and labels a person sees.
import { randomUUID } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import type { Browser, Page } from 'playwright-core';
import { startWebhookReceiver, type WebhookReceiver } from '@platform/launcher';
import { launchChromium, waitFor } from '@platform/testing';
import { checkScreen, csrfTokenOf, newPortalPage, portalUrl, settled, signInLinks } from './support/portal-browser';
import { sharedSystem, type Partner, type System } from './support/system';

const SUFFIX = randomUUID().slice(0, 8);
const SITE_ROOT = `portal-${SUFFIX}.example.com`;
const SIGN_IN_SUBJECT = /^Your sign-in link for /;
const INVITATION_SUBJECT = /^You are invited to /;

interface Domain {
  id: string;
  hostname: string;
  source: string;
  status: string;
}

describe('the partner portal (Chromium, real platform)', () => {
  let sys: System;
  let partner: Partner;
  let otherPartner: Partner;
  let browser: Browser;
  let receiver: WebhookReceiver;
  let links: ReturnType<typeof signInLinks>;
  /** The partner's administrator, signed in once for the tests that act as them. */
  let admin: Page;
  const adminEmail = `admin-${SUFFIX}@partner.example`;

  const app = (appPath = '/') => portalUrl(sys, appPath);
  const heading = (page: Page, name: string) => page.getByRole('heading', { name, exact: true });
  const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' });
  /** Asks for a link on the sign-in page and opens the one that arrives by e-mail. */
  const signIn = async (page: Page, email: string, screens?: string) => {
    await page.goto(app('/sign-in'));
    await heading(page, 'Sign in').waitFor();
    if (screens) await checkScreen(page, `${screens}-sign-in`);
    await page.getByLabel('E-mail address').fill(email);
    await page.getByRole('button', { name: 'E-mail me a sign-in link' }).click();
    await heading(page, 'Check your e-mail').waitFor();
    if (screens) await checkScreen(page, `${screens}-check-email`);
    await page.goto(await links.next(email, SIGN_IN_SUBJECT));
  };
  const inviteUser = (email: string, role: string, name: string) =>
    sys.admin('user', 'invite', '--partner', partner.id, '--email', email, '--role', role, '--name', name);
  const createDomain = async (who: Partner, label: string) =>
    (
      await sys.arrange(who, 'POST', '/portal/domains', {
        domain: `${label}.${SITE_ROOT}`,
        company_name: `Shop ${label}`,
        account_email: `owner-${label}@${SITE_ROOT}`,
        account_first_name: 'Olga',
      })
    ).body.result as Domain;
  const callWith = (secret: string) => sys.call(secret, 'GET', '/portal/domains');

  beforeAll(async () => {
    sys = await sharedSystem();
    links = signInLinks(sys);
    receiver = await startWebhookReceiver();
    partner = await sys.partner(`Portal Partner ${SUFFIX}`);
    otherPartner = await sys.partner();
    browser = await launchChromium([]);
    await inviteUser(adminEmail, 'ADMINISTRATOR', 'Ada Admin');
    admin = await newPortalPage(browser);
    await signIn(admin, adminEmail);
    await heading(admin, 'Dashboard').waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await sys?.close();
  });

  it('when a user asks for a link and opens it from the mail catcher, then they land signed in on the dashboard; after enrolling TOTP, the link leads to the code step and a current code signs them in', async () => {
    const email = `totp-${SUFFIX}@partner.example`;
    await inviteUser(email, 'DEVELOPER', 'Tom Totp');
    await createDomain(partner, 'dashboard');
    const page = await newPortalPage(browser);
    await signIn(page, email, 'first');
    await heading(page, 'Dashboard').waitFor();
    expect(new URL(page.url()).pathname).toMatch(/^\/app\/?$/);
    await nav(page).getByText('Tom Totp').waitFor();
    await checkScreen(page, 'dashboard');

    await nav(page).getByRole('link', { name: 'Your profile and 2FA' }).click();
    await page.getByRole('button', { name: 'Set up two-factor authentication' }).click();
    const secret = await page.locator('p', { hasText: 'Or enter this key' }).locator('code').textContent();
    const totp = new TOTP({ secret: Secret.fromBase32(secret!), algorithm: 'SHA1', digits: 6, period: 30 });
    await page.getByRole('img', { name: 'QR code to scan with your authenticator app' }).waitFor();
    await checkScreen(page, 'account-enrol-two-factor');
    await page.getByLabel('6-digit code').fill(totp.generate());
    await page.getByRole('button', { name: 'Turn on two-factor authentication' }).click();
    const recoveryCodes = page.getByRole('list', { name: 'Recovery codes' });
    await recoveryCodes.waitFor();
    expect(await recoveryCodes.getByRole('listitem').count()).toBe(10);
    await checkScreen(page, 'account-recovery-codes');
    await page.getByRole('button', { name: 'I saved them, continue' }).click();
    await page.getByText('Two-factor authentication is on.').waitFor();

    await page.getByRole('button', { name: 'Sign out' }).click();
    await heading(page, 'Sign in').waitFor();
    expect((await page.context().request.get(`${sys.gateway}/portal/auth/session`)).status()).toBe(401);
    await signIn(page, email);
    await heading(page, 'Two-factor authentication').waitFor();
    await checkScreen(page, 'sign-in-two-factor');
    // The enrolment spent this step's code (a code works once): the next step's is within the allowed drift.
    await page.getByLabel('6-digit code').fill(totp.generate({ timestamp: Date.now() + 30_000 }));
    await page.getByRole('button', { name: 'Continue' }).click();
    await heading(page, 'Dashboard').waitFor();
    await nav(page).getByText('Tom Totp').waitFor();
    await page.context().close();
  });

  it('when a key is created in the UI, then its one-time secret calls the API; rolled with no overlap the old secret stops and the new one works; revoked, the new one stops too', async () => {
    const name = `Nightly export ${SUFFIX}`;
    await admin.goto(app('/integrations/api-keys'));
    await heading(admin, 'API keys').waitFor();
    await admin.getByRole('button', { name: 'Create API key' }).click();
    const form = admin.getByRole('dialog', { name: 'Create API key' });
    await form.getByLabel('Name').fill(name);
    await checkScreen(admin, 'api-key-create');
    await form.getByRole('button', { name: 'Create key' }).click();
    const shown = admin.getByRole('dialog', { name: 'Your new API key' });
    const secret = (await shown.getByLabel('Secret').textContent())!;
    expect(secret.length).toBeGreaterThan(20);
    await checkScreen(admin, 'api-key-secret');
    await shown.getByRole('button', { name: 'Done, I copied it' }).click();
    await admin.getByRole('cell', { name: new RegExp(`^${name}`) }).waitFor();
    expect(await admin.content()).not.toContain(secret);
    const first = await callWith(secret);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ result: expect.any(Array) });

    await admin.getByRole('button', { name: `Roll ${name}` }).click();
    const roll = admin.getByRole('dialog', { name: `Roll “${name}”` });
    await roll.getByLabel('Overlap in hours (0 to 168)').fill('0');
    await checkScreen(admin, 'api-key-roll');
    await roll.getByRole('button', { name: 'Roll key' }).click();
    const rolled = admin.getByRole('dialog', { name: 'The rolled key’s new secret' });
    const newSecret = (await rolled.getByLabel('Secret').textContent())!;
    expect(newSecret).not.toBe(secret);
    await rolled.getByRole('button', { name: 'Done, I copied it' }).click();
    await waitFor(async () => (await callWith(secret)).status === 401, { what: 'the old secret refused' });
    expect((await callWith(newSecret)).status).toBe(200);
    await settled(admin);
    await checkScreen(admin, 'api-keys');

    await admin.getByRole('button', { name: `Revoke ${name}` }).click();
    await admin
      .getByRole('dialog', { name: `Revoke “${name}”?` })
      .getByRole('button', { name: 'Revoke key' })
      .click();
    await admin.getByRole('dialog').waitFor({ state: 'detached' });
    await waitFor(async () => (await callWith(newSecret)).status === 401, { what: 'the revoked secret refused' });
    expect(await admin.getByRole('button', { name: `Revoke ${name}` }).count()).toBe(0);
  });

  it('when an endpoint on 127.0.0.1 is registered and a domain created in the UI, then the domain is from PORTAL and its domain.created delivery shows in the delivery log', async () => {
    const hookPath = `/portal-${SUFFIX}`;
    await admin.goto(app('/integrations/webhooks'));
    await heading(admin, 'Webhooks').waitFor();
    await admin.getByRole('button', { name: 'Add endpoint' }).click();
    const form = admin.getByRole('dialog', { name: 'Add endpoint' });
    await form.getByLabel('Endpoint URL').fill(`${receiver.url}${hookPath}`);
    await form.getByLabel('Description (optional)').fill('Our order system');
    await checkScreen(admin, 'webhook-create');
    await form.getByRole('button', { name: 'Add endpoint' }).click();
    await admin
      .getByRole('dialog', { name: "Your endpoint's signing secret" })
      .getByRole('button', { name: 'Done, I copied it' })
      .click();
    await admin.getByRole('link', { name: `${receiver.url}${hookPath}` }).waitFor();
    await checkScreen(admin, 'webhooks');

    const hostname = `created.${SITE_ROOT}`;
    await nav(admin).getByRole('link', { name: 'Domains' }).click();
    await admin.getByRole('link', { name: /Create domain/ }).click();
    await heading(admin, 'Create domain').waitFor();
    await admin.getByLabel('Domain').fill(hostname);
    await admin.getByLabel('Company name').fill('Created <b>Shop</b> GmbH');
    await admin.getByLabel("Owner's e-mail").fill(`owner@${hostname}`);
    await checkScreen(admin, 'domain-create');
    await admin.getByRole('button', { name: 'Create domain' }).click();
    await heading(admin, hostname).waitFor();
    await admin.getByText('The domain was created.').waitFor();
    // Markup in a company name is shown as text, never run as HTML.
    await admin.getByText('Created <b>Shop</b> GmbH').waitFor();
    await checkScreen(admin, 'domain');
    const domainId = /\/app\/domains\/([^/?#]+)/.exec(admin.url())![1];
    const stored = await sys.arrange(partner, 'GET', `/portal/domains/${domainId}`);
    expect(stored.body.result).toMatchObject({ id: domainId, hostname, source: 'PORTAL' });

    await nav(admin).getByRole('link', { name: 'Webhooks' }).click();
    await admin.getByRole('link', { name: `${receiver.url}${hookPath}` }).click();
    await heading(admin, 'Webhook endpoint').waitFor();
    // The log refreshes itself only while a delivery is pending: look again until it shows.
    const delivery = admin.getByRole('listitem').filter({ hasText: 'domain.created' });
    await waitFor(
      async () => {
        await settled(admin);
        if ((await delivery.count()) > 0 && (await delivery.getByText('succeeded', { exact: true }).count()) > 0)
          return true;
        await admin.reload();
        return undefined;
      },
      { timeoutMs: 20_000, what: 'the domain.created delivery in the log' },
    );
    await delivery.getByText('domain.created', { exact: true }).click();
    await delivery.getByLabel('Payload').getByText(domainId).waitFor();
    await checkScreen(admin, 'webhook-deliveries');
    const received = receiver.received.find((r) => r.path === hookPath && r.body.includes(domainId));
    expect(JSON.parse(received!.body)).toMatchObject({ event: 'domain.created' });
  });

  it('when the invitation template is customised in the UI and the owner invited from the domain page, then the mail catcher holds the customised subject and body', async () => {
    const domain = await createDomain(partner, 'invited');
    await admin.goto(app('/email-templates'));
    await heading(admin, 'E-mail templates').waitFor();
    await checkScreen(admin, 'email-templates');
    await admin.getByRole('link', { name: 'Invitation' }).click();
    await heading(admin, 'Invitation e-mail').waitFor();
    await settled(admin);
    await admin.getByLabel('Subject').fill(`Custom ${SUFFIX}: switch on {{ domain_name }}`);
    await admin
      .getByLabel('Body')
      .fill(`<p>Dear {{ owner_first_name }}, {{ partner_name }} asks you to paste:</p><pre>{{ widget_snippet }}</pre>`);
    const saved = admin.waitForResponse(
      (r) => r.request().method() === 'PUT' && r.url().endsWith('/portal/email-templates/INVITATION'),
    );
    await admin.getByRole('button', { name: 'Save' }).click();
    expect((await saved).status()).toBe(200);
    // Saved, the template is the partner's own: it can be reset to the platform's default.
    await admin.getByRole('button', { name: 'Reset to default' }).waitFor();
    expect(await admin.getByLabel('Subject').inputValue()).toBe(`Custom ${SUFFIX}: switch on {{ domain_name }}`);
    // The live preview renders the draft with example data.
    await admin.getByText(new RegExp(`^Subject: Custom ${SUFFIX}: switch on \\S+`)).waitFor();
    await checkScreen(admin, 'email-template-edit');

    await admin.goto(app(`/domains/${domain.id}`));
    await heading(admin, domain.hostname).waitFor();
    await admin.getByRole('button', { name: 'Invite owner' }).click();
    await admin.getByText('The invitation is on its way.').waitFor();
    const mail = await sys.smtp.waitForMessage(
      (m) => m.to.includes(`owner-invited@${SITE_ROOT}`) && m.subject.startsWith(`Custom ${SUFFIX}`),
      15_000,
    );
    expect(mail.subject).toBe(`Custom ${SUFFIX}: switch on ${domain.hostname}`);
    expect(mail.decoded).toContain(`Dear Olga, Portal Partner ${SUFFIX} asks you to paste:`);
    expect(mail.decoded).toContain(`/widget/v1/`);
  });

  it("when an administrator makes an account manager a developer in Team, then that user's session ends, their next sign-in shows no Team, and their API call to delete a domain answers 403", async () => {
    const email = `manager-${SUFFIX}@partner.example`;
    const domain = await createDomain(partner, 'kept');
    await admin.goto(app('/team'));
    await heading(admin, 'Team').waitFor();
    await admin.getByRole('button', { name: 'Invite teammate' }).click();
    const invite = admin.getByRole('dialog', { name: 'Invite a teammate' });
    await invite.getByLabel('E-mail address').fill(email);
    await invite.getByLabel('Name (optional)').fill('Mia Manager');
    await invite.getByLabel('Role').selectOption('ACCOUNT_MANAGER');
    await checkScreen(admin, 'team-invite');
    await invite.getByRole('button', { name: 'Send invitation' }).click();
    await invite.waitFor({ state: 'detached' });
    await checkScreen(admin, 'team');

    const manager = await newPortalPage(browser);
    await manager.goto(await links.next(email, INVITATION_SUBJECT));
    await heading(manager, 'Dashboard').waitFor();
    await nav(manager).getByRole('link', { name: 'Team', exact: true }).waitFor();

    await admin.reload();
    const role = admin.getByLabel('Role of Mia Manager');
    expect(await role.inputValue()).toBe('ACCOUNT_MANAGER');
    const changed = admin.waitForResponse(
      (r) => r.request().method() === 'PATCH' && r.url().includes('/portal/users/'),
    );
    await role.selectOption('DEVELOPER');
    expect((await changed).status()).toBe(200);

    // A role change ends the user's sessions at once: the next page load asks them to sign in.
    await manager.reload();
    await heading(manager, 'Sign in').waitFor();
    await signIn(manager, email);
    await heading(manager, 'Dashboard').waitFor();
    await nav(manager).getByRole('link', { name: 'Domains', exact: true }).waitFor();
    expect(await nav(manager).getByRole('link', { name: 'Team', exact: true }).count()).toBe(0);
    expect(await nav(manager).getByText('developer').count()).toBe(1);
    await checkScreen(manager, 'developer-dashboard');
    await manager.goto(app(`/domains/${domain.id}`));
    await heading(manager, domain.hostname).waitFor();
    await settled(manager);
    expect(await manager.getByRole('button', { name: 'Delete' }).count()).toBe(0);

    const csrf = await csrfTokenOf(manager, sys);
    const refused = await manager.context().request.delete(`${sys.gateway}/portal/domains/${domain.id}`, {
      headers: { 'X-CSRF-Token': csrf },
    });
    expect(refused.status()).toBe(403);
    expect(await refused.json()).toMatchObject({ error: { code: 'AUTH.FORBIDDEN', status: 403 } });
    expect((await sys.call(partner, 'GET', `/portal/domains/${domain.id}`)).status).toBe(200);
    await manager.context().close();
  });

  it("when another partner's domain id is in the address, then the page says not found", async () => {
    const foreign = await createDomain(otherPartner, 'foreign');
    await admin.goto(app(`/domains/${foreign.id}`));
    await admin
      .getByRole('alert')
      .getByText(/^Not found\./)
      .waitFor();
    expect(await admin.getByText(foreign.hostname).count()).toBe(0);
    await checkScreen(admin, 'domain-not-found');
  });

  it('when a 3-row csv with one invalid row is previewed and imported in the UI, then the job completes with 2 domains created from IMPORT', async () => {
    const hosts = ['imp-a', 'imp-b'].map((label) => `${label}.${SITE_ROOT}`);
    const csv = [
      'domain,company legal name,e-mail',
      `${hosts[0]},Import A Ltd,owner-a@${SITE_ROOT}`,
      `${hosts[1]},Import B Ltd,owner-b@${SITE_ROOT}`,
      `imp-c.${SITE_ROOT},Import C Ltd,not-an-email`,
    ].join('\n');
    await admin.goto(app('/domains'));
    await admin.getByRole('link', { name: 'Import domains' }).click();
    await heading(admin, 'Import domains').waitFor();
    await admin
      .getByLabel('File', { exact: true })
      .setInputFiles({ name: 'three.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await checkScreen(admin, 'import-chosen');
    await admin.getByRole('button', { name: 'Preview' }).click();
    const invalid = admin.getByRole('region', { name: 'Rows with errors' }).getByRole('row', { name: /imp-c\./ });
    await invalid.waitFor();
    expect(await invalid.textContent()).toContain('e-mail:');
    await checkScreen(admin, 'import-preview');

    await admin.getByRole('button', { name: 'Import 2 domains' }).click();
    await admin.getByRole('progressbar', { name: 'Import progress' }).waitFor();
    await heading(admin, 'Results').waitFor({ timeout: 30_000 });
    await checkScreen(admin, 'import-results');
    const rows = admin.getByRole('region', { name: 'Imported rows' });
    const ids = await Promise.all(
      hosts.map(async (host) => {
        const href = await rows.getByRole('link', { name: host }).getAttribute('href');
        return href!.split('/').pop()!;
      }),
    );
    for (const [i, id] of ids.entries()) {
      const stored = await sys.arrange(partner, 'GET', `/portal/domains/${id}`);
      expect(stored.body).toMatchObject({ result: { hostname: hosts[i], source: 'IMPORT' } });
    }
  });

  it.each([
    ['domains', '/domains', 'Domains'],
    ['merchants', '/merchants', 'Merchants'],
    ['audit-log', '/audit-log', 'Audit log'],
    ['settings', '/settings', 'Settings'],
    ['account', '/account', 'Your profile'],
  ])(
    'when the administrator opens the %s screen, then it shows with no serious axe violation',
    async (name, path, title) => {
      await admin.goto(app(path));
      await heading(admin, title).waitFor();
      await checkScreen(admin, name);
    },
  );
});
