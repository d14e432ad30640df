// Every screen, signed in as an administrator, at 1280 px and on a 390 px phone: it renders its
// heading, finishes loading, axe finds no serious or critical violation, nothing breaks the CSP, the
// page does not scroll sideways, and a screenshot goes to test/artifacts/.
import type { Page } from 'playwright-core';
import { DESKTOP, PHONE, portalTestBed, screenshot, seriousViolations, settled } from './support/browser';

const bed = portalTestBed();

const SCREENS: [name: string, path: string, heading: string][] = [
  ['dashboard', '/', 'Dashboard'],
  ['domains', '/domains', 'Domains'],
  ['domain-create', '/domains/new', 'Create domain'],
  ['domain-import', '/domains/import', 'Import domains'],
  ['domain', '/domains/dom_0004', 'shop4.example.com'],
  ['merchants', '/merchants', 'Merchants'],
  ['merchant-create', '/merchants/new', 'Create merchant'],
  ['merchant', '/merchants/mer_1', 'merchant-1'],
  ['api-keys', '/integrations/api-keys', 'API keys'],
  ['webhooks', '/integrations/webhooks', 'Webhooks'],
  ['webhook', '/integrations/webhooks/whe_1', 'Webhook endpoint'],
  ['email-templates', '/email-templates', 'E-mail templates'],
  ['email-template', '/email-templates/INVITATION', 'Invitation e-mail'],
  ['team', '/team', 'Team'],
  ['audit-log', '/audit-log', 'Audit log'],
  ['settings', '/settings', 'Settings'],
  ['account', '/account', 'Your profile'],
  ['not-found', '/no-such-screen', 'Page not found'],
];

async function checkScreen(page: Page, path: string, heading: string) {
  await page.goto(bed.api.url(path));
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  await settled(page);
  expect(await seriousViolations(page)).toEqual([]);
  const overflow = await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth');
  expect(overflow).toBe(0);
  expect(bed.consoleErrors).toEqual([]);
}

describe('every screen', () => {
  it.each(SCREENS)('%s renders at 1280 px without serious axe violations', async (name, path, heading) => {
    const page = await bed.page({ viewport: DESKTOP });
    await checkScreen(page, path, heading);
    await screenshot(page, `desktop-${name}`);
  });

  it.each(SCREENS)(
    '%s renders on a 390 px phone without serious axe violations or sideways scrolling',
    async (name, path, heading) => {
      const page = await bed.page({ viewport: PHONE });
      await checkScreen(page, path, heading);
      await screenshot(page, `phone-${name}`);
    },
  );
});

describe('event catalogue', () => {
  it('when an event is opened, then its example and its JSON Schema are shown', async () => {
    const page = await bed.page();
    await page.goto(bed.api.url('/integrations/webhooks'));
    await page.getByText('domain.created', { exact: true }).click();
    const example = JSON.parse((await page.getByLabel('Example of domain.created').textContent()) ?? '');
    expect(example.event).toBe('domain.created');
    const schema = JSON.parse((await page.getByLabel('JSON Schema of domain.created').textContent()) ?? '');
    expect(schema.properties.event.const).toBe('domain.created');
    expect(schema.required).toEqual(expect.arrayContaining(['event', 'params']));
    await screenshot(page, 'desktop-webhooks-event-catalogue');
    expect(await seriousViolations(page)).toEqual([]);
  });
});

describe('list states', () => {
  it('when the API fails, then the list says so and "Try again" loads it once the API is back', async () => {
    bed.api.failing.set('listDomains', 503);
    const page = await bed.page();
    await page.goto(bed.api.url('/domains'));
    const alert = page.getByRole('alert').filter({ hasText: 'unavailable' });
    await alert.waitFor();
    await screenshot(page, 'desktop-domains-error');
    bed.api.failing.delete('listDomains');
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByRole('link', { name: 'shop1.example.com' }).waitFor();
  });

  it('when nothing matches the filters, then the empty state says so, and the filters live in the address', async () => {
    const page = await bed.page();
    await page.goto(bed.api.url('/domains'));
    await page.getByRole('searchbox', { name: 'Search' }).fill('nothing-like-this');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText('No domain matches these filters').waitFor();
    expect(new URL(page.url()).searchParams.get('search')).toBe('nothing-like-this');
    await screenshot(page, 'desktop-domains-empty');
  });

  it('when a list is loading, then a status announces it', async () => {
    let release = () => {};
    bed.api.held.set('listMerchants', new Promise<void>((resolve) => (release = resolve)));
    const page = await bed.page();
    await page.goto(bed.api.url('/merchants'));
    await page.getByRole('status').filter({ hasText: 'Loading merchants…' }).waitFor({ state: 'attached' });
    await screenshot(page, 'desktop-merchants-loading');
    release();
    await page.getByRole('link', { name: 'merchant-1' }).waitFor();
  });
});
