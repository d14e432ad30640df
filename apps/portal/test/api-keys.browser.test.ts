// Integrations / API keys: a new key's secret is shown once (and only in its dialog), a roll shows
// the new secret, a revoke asks first; the dialogs trap focus, close on Escape and give focus back.
import { PERMISSIONS } from '@platform/contracts';
import { DESKTOP, portalTestBed, screenshot, seriousViolations } from './support/browser';

const bed = portalTestBed();

describe('API keys', () => {
  it('when a key is created, then its secret is shown once with a copy button and is gone after the dialog closes', async () => {
    const page = await bed.page();
    await page.goto(bed.api.url('/integrations/api-keys'));
    await page.getByRole('button', { name: 'Create API key' }).click();
    const form = page.getByRole('dialog', { name: 'Create API key' });
    await form.getByLabel('Name').fill('Nightly export');
    await form.getByLabel('merchants:read').check();
    await screenshot(page, 'desktop-api-key-create');
    expect(await seriousViolations(page)).toEqual([]);
    await form.getByRole('button', { name: 'Create key' }).click();

    const dialog = page.getByRole('dialog', { name: 'Your new API key' });
    await dialog.waitFor();
    const [created] = bed.api.calls.filter((c) => c.operationId === 'createApiKey');
    expect(created.body).toEqual({
      name: 'Nightly export',
      permissions: expect.arrayContaining(['domains:read', 'merchants:read']),
    });
    expect(created.csrf).toBeTruthy();
    const secret = bed.api.state.secrets.get('key_0004')!;
    expect(await dialog.getByLabel('Secret').textContent()).toBe(secret);
    await dialog.getByText('It is shown only this once').waitFor();
    await dialog.getByRole('button', { name: 'Copy secret' }).waitFor();
    await screenshot(page, 'desktop-api-key-secret');
    expect(await seriousViolations(page)).toEqual([]);

    await dialog.getByRole('button', { name: 'Done, I copied it' }).click();
    await page.getByRole('cell', { name: /^Nightly export pdm_live_\w+0004…/ }).waitFor();
    expect(await page.content()).not.toContain(secret);
  });

  it('when a key is rolled, then the chosen overlap is sent and the new secret is shown', async () => {
    const page = await bed.page();
    await page.goto(bed.api.url('/integrations/api-keys'));
    await page.getByRole('button', { name: 'Roll Shop sync' }).click();
    const dialog = page.getByRole('dialog', { name: /Roll “Shop sync”/ });
    await dialog.getByLabel('Overlap in hours (0 to 168)').fill('200');
    await dialog.getByRole('button', { name: 'Roll key' }).click();
    const overlap = dialog.getByLabel('Overlap in hours (0 to 168)');
    await dialog.locator('.field-error').waitFor();
    expect(await overlap.getAttribute('aria-invalid')).toBe('true');
    expect(bed.api.calls.some((c) => c.operationId === 'rollApiKey')).toBe(false);
    await overlap.fill('48');
    await dialog.getByRole('button', { name: 'Roll key' }).click();
    await page.getByRole('dialog', { name: 'The rolled key’s new secret' }).waitFor();
    expect(bed.api.calls.find((c) => c.operationId === 'rollApiKey')?.body).toEqual({ overlap_hours: 48 });
  });

  it('when revoke is asked, then a dialog confirms; Escape cancels and returns focus, Revoke key revokes', async () => {
    const page = await bed.page();
    await page.goto(bed.api.url('/integrations/api-keys'));
    const revoke = page.getByRole('button', { name: 'Revoke Shop sync' });
    await revoke.click();
    const dialog = page.getByRole('dialog', { name: 'Revoke “Shop sync”?' });
    await dialog.waitFor();
    expect(await page.evaluate('document.activeElement.textContent')).toBe('Cancel');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await revoke.evaluate((el) => el === (el.ownerDocument.activeElement as unknown))).toBe(true);
    await revoke.click();
    await page.getByRole('dialog', { name: 'Revoke “Shop sync”?' }).getByRole('button', { name: 'Revoke key' }).click();
    await page
      .getByRole('row', { name: /Shop sync/ })
      .getByText('Revoked')
      .waitFor();
    expect(bed.api.calls.filter((c) => c.operationId === 'revokeApiKey').map((c) => c.path)).toEqual([
      '/portal/api-keys/key_0001',
    ]);
  });

  it('when the page is 1280 px wide, then the table fits: every column shows and nothing scrolls sideways', async () => {
    const page = await bed.page({ viewport: DESKTOP });
    await page.goto(bed.api.url('/integrations/api-keys'));
    const table = page.getByRole('region', { name: 'API keys' });
    const longest = table.getByRole('row', { name: /Nightly export to the accounting system/ });
    await longest.waitFor();
    const overflow = await page.evaluate(
      "(() => { const f = document.querySelector('.table-frame'); return f.scrollWidth - f.clientWidth; })()",
    );
    expect(overflow).toBe(0);
    const frame = (await table.boundingBox())!;
    const headers = table.getByRole('columnheader');
    expect(await headers.allTextContents()).toEqual([
      'Key',
      'State',
      'Permissions',
      'Last used',
      'Created by',
      'Expires',
      'Actions',
    ]);
    for (const header of await headers.all()) {
      const box = (await header.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(frame.x);
      expect(box.x + box.width).toBeLessThanOrEqual(frame.x + frame.width + 0.5);
    }
    // The permissions are a count that opens to the list.
    const permissions = longest.getByText(`${PERMISSIONS.length} permissions`);
    await permissions.click();
    await longest.getByText('webhooks:write').waitFor();
    await screenshot(page, 'desktop-api-keys-permissions-open');
    expect(await seriousViolations(page)).toEqual([]);
  });
});
