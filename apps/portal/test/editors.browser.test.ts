// The e-mail template editor and the settings form: the live preview frame shows the rendered
// e-mail, and a save's confirmation stays (a polite status) until the next edit.
import { waitFor } from '@platform/testing';
import { portalTestBed, screenshot, seriousViolations, settled } from './support/browser';

const bed = portalTestBed();

/** Resolves once the portal has called `operationId` again after `than` (what reloads after a save). */
const calledAfter = (operationId: string, than: string) =>
  waitFor(
    () => {
      const ids = bed.api.calls.map((c) => c.operationId);
      return ids.includes(than) && ids.lastIndexOf(operationId) > ids.indexOf(than);
    },
    { what: `${operationId} after ${than}` },
  );

describe('the e-mail template editor', () => {
  it('when a template opens, then the preview frame shows the e-mail rendered with example values', async () => {
    const page = await bed.page();
    await page.goto(bed.api.url('/email-templates/INVITATION'));
    await page.getByRole('heading', { level: 1, name: 'Invitation e-mail' }).waitFor();
    const preview = page.getByRole('region', { name: 'Preview' });
    await preview.getByText('Subject: Activate privacy on shop.example.com').waitFor();
    const frame = page.frameLocator('iframe[title="E-mail preview"]');
    await frame.getByText('Hello Ada,').waitFor();
    await frame.getByText('your site shop.example.com is ready. Add this snippet:').waitFor();
    expect(await frame.locator('pre').textContent()).toContain('<script src="https://widget.example.net/widget/v1/');

    await page.getByLabel('Subject').fill('Switch on {{ domain_name }} for {{ company_name }}');
    await page.getByLabel('Body').fill('<p>Dear {{ owner_first_name }} {{ owner_last_name }}</p>');
    await preview.getByText('Subject: Switch on shop.example.com for Analytical Engines Ltd').waitFor();
    await frame.getByText('Dear Ada Lovelace').waitFor();
    await settled(page);
    await screenshot(page, 'desktop-email-template-preview');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('when a template is saved, then "Saved." stays (a status) after the page reloads the template, until the next edit', async () => {
    const page = await bed.page();
    await page.goto(bed.api.url('/email-templates/INTRO'));
    await page.getByRole('heading', { level: 1, name: 'Intro e-mail' }).waitFor();
    await page.getByLabel('Subject').fill('Welcome, {{ owner_first_name }}');
    await page.getByRole('button', { name: 'Save' }).click();
    const status = page.getByRole('status').filter({ hasText: 'Saved. New e-mails use this version.' });
    await status.waitFor();
    // What used to wipe it: the template read again after the save (it remounted the editor).
    await calledAfter('getEmailTemplate', 'putEmailTemplate');
    await page.getByRole('button', { name: 'Reset to default' }).waitFor();
    await settled(page);
    expect(await status.isVisible()).toBe(true);
    expect(await page.getByLabel('Subject').inputValue()).toBe('Welcome, {{ owner_first_name }}');
    await page.getByRole('region', { name: 'Preview' }).getByText('Subject: Welcome, Ada').waitFor();
    await screenshot(page, 'desktop-email-template-saved');

    await page.getByLabel('Body').press('End');
    await page.getByLabel('Body').pressSequentially('!');
    await status.waitFor({ state: 'detached' });
    expect(await page.getByRole('status').filter({ hasText: 'Saved' }).count()).toBe(0);
  });
});

describe('settings', () => {
  it('when settings are saved, then "Settings saved." stays after the session is read again, until the next edit', async () => {
    const page = await bed.page();
    await page.goto(bed.api.url('/settings'));
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    await page.getByLabel('Partner name').fill('Acme Hosting GmbH');
    await page.getByRole('button', { name: 'Save settings' }).click();
    const status = page.getByRole('status').filter({ hasText: 'Settings saved.' });
    await status.waitFor();
    await calledAfter('getSession', 'updateSettings');
    await page.getByRole('banner').getByText('Acme Hosting GmbH').waitFor();
    await settled(page);
    expect(await status.isVisible()).toBe(true);
    expect(bed.api.state.settings.name).toBe('Acme Hosting GmbH');

    await page.getByLabel('Require two-factor authentication for every user').check();
    await status.waitFor({ state: 'detached' });
  });

  it('when the registration widget is turned on for an origin, then the settings carry it; an origin with a path is refused at its field', async () => {
    const page = await bed.page();
    await page.goto(bed.api.url('/settings'));
    const registration = page.getByRole('group', { name: 'Registration widget' });
    await registration.waitFor();
    expect(await registration.getByLabel('Registration widget embed code').textContent()).toContain(
      `data-partner="${bed.api.state.settings.id}"`,
    );
    await registration.getByLabel('Turn the registration widget on').check();
    const origins = registration.getByLabel('Pages allowed to embed it');
    await origins.fill('https://panel.example.com/login');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await registration.getByText('must be an origin like https://shop.example.com').waitFor();
    expect(await origins.getAttribute('aria-invalid')).toBe('true');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'settings-onboarding-widgets-error');

    await origins.fill('https://Panel.Example.com\nhttps://checkout.example.com:8443');
    await registration.getByLabel('Colour').fill('#0E7C3A');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').filter({ hasText: 'Settings saved.' }).waitFor();
    expect(bed.api.state.settings.onboarding_widgets.registration).toEqual({
      enabled: true,
      allowed_origins: ['https://panel.example.com', 'https://checkout.example.com:8443'],
      primary_color: '#0e7c3a',
    });
    expect(bed.api.state.settings.onboarding_widgets.scan.enabled).toBe(false);
  });
});
