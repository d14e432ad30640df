// The owner console's Company: the company, address, account owner's and DPO details, a save of what
// changed (nested as the contract's body), the contract's field errors at their fields, and a VIEWER's read-only view.
import { PHONE, DESKTOP, portalTestBed } from './support/browser';
import { checkScreen } from './support/screen';

const bed = portalTestBed();
const COMPANY = '/owner/domains/dom_0004/company';
const puts = () => bed.api.calls.filter((c) => c.operationId === 'updateOwnerCompany');

describe('owner console: company', () => {
  it('when the owner changes the company’s details, then only the changes are sent, and the screen says they are saved', async () => {
    const page = await bed.page({ userId: null, ownerId: 'own_shop' });
    await page.goto(bed.api.url(COMPANY));
    const name = page.getByLabel('Company name');
    await name.waitFor();
    expect(await name.inputValue()).toBe('Shop 4 GmbH');
    await checkScreen(bed, page, 'desktop-owner-company');
    await name.fill('Shop Four GmbH');
    await page.getByLabel('Country code').fill('fr');
    await page.getByText('France. Two letters, like DE or FR').waitFor();
    await page.getByLabel('First name').fill('Olivia');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('status').getByText('Saved. Your privacy center shows the new details.').waitFor();
    expect(puts().map((c) => c.body)).toEqual([
      { name: 'Shop Four GmbH', address: { country: 'FR' }, owner: { first_name: 'Olivia' } },
    ]);
    await page.reload();
    await name.waitFor();
    expect(await name.inputValue()).toBe('Shop Four GmbH');
    expect(await page.getByLabel('Country code').inputValue()).toBe('FR');
  });

  it('when the owner sets the data protection officer, then dpo is sent; emptying a field sends null for it', async () => {
    const page = await bed.page({ userId: null, ownerId: 'own_shop' });
    await page.goto(bed.api.url(COMPANY));
    const dpoName = page.getByLabel('DPO name');
    await dpoName.waitFor();
    expect([await dpoName.inputValue(), await page.getByLabel('DPO e-mail').inputValue()]).toEqual(['', '']);
    await dpoName.fill('Privacy team');
    await page.getByLabel('DPO e-mail').fill('DPO@Shop4.example');
    await checkScreen(bed, page, 'desktop-owner-company-dpo');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('status').getByText('Saved. Your privacy center shows the new details.').waitFor();
    await page.reload();
    await dpoName.waitFor();
    expect([await dpoName.inputValue(), await page.getByLabel('DPO e-mail').inputValue()]).toEqual([
      'Privacy team',
      'dpo@shop4.example',
    ]);
    await dpoName.fill('');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('status').getByText('Saved. Your privacy center shows the new details.').waitFor();
    expect(puts().map((c) => c.body)).toEqual([
      { dpo: { name: 'Privacy team', email: 'dpo@shop4.example' } },
      { dpo: { name: null } },
    ]);
    expect(await page.getByLabel('DPO e-mail').inputValue()).toBe('dpo@shop4.example');
  });

  it('when a field breaks the contract’s rules, then each error shows at its field and nothing is sent', async () => {
    const page = await bed.page({ userId: null, ownerId: 'own_admin' });
    await page.goto(bed.api.url(COMPANY));
    await page.getByLabel('Contact e-mail').fill('not-an-address');
    await page.getByLabel('Country code').fill('XX');
    await page.getByLabel('DPO e-mail').fill('dpo-at-example');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('must be an e-mail address').first().waitFor();
    expect(await page.getByLabel('DPO e-mail').getAttribute('aria-invalid')).toBe('true');
    await page.getByText('must be an ISO 3166-1 alpha-2 code').waitFor();
    expect(await page.getByLabel('Country code').getAttribute('aria-invalid')).toBe('true');
    // Focus goes to the first field in error.
    await page.waitForFunction("document.activeElement?.getAttribute('type') === 'email'");
    expect(puts()).toEqual([]);
    await checkScreen(bed, page, 'desktop-owner-company-invalid');
    await page.getByLabel('Country code').fill('DE');
    expect(await page.getByText('must be an ISO 3166-1 alpha-2 code').count()).toBe(0);
  });

  it('when a VIEWER opens it, then the details are read-only, with no Save (at 1280 px and on a phone)', async () => {
    const page = await bed.page({ userId: null, ownerId: 'own_viewer' });
    await page.goto(bed.api.url(COMPANY));
    await page.getByText('You can look, not change').waitFor();
    expect(await page.getByLabel('Company name').isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Save changes' }).count()).toBe(0);
    await checkScreen(bed, page, 'desktop-owner-company-viewer');
    await page.setViewportSize(PHONE);
    await checkScreen(bed, page, 'phone-owner-company-viewer');
    await page.setViewportSize(DESKTOP);
  });

  it('on a 390 px phone, the form fits and saves', async () => {
    const page = await bed.page({ viewport: PHONE, userId: null, ownerId: 'own_shop' });
    await page.goto(bed.api.url(COMPANY));
    await page.getByLabel('City').fill('Hamburg');
    await checkScreen(bed, page, 'phone-owner-company');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Saved. Your privacy center shows the new details.').waitFor();
    expect(puts().map((c) => c.body)).toEqual([{ address: { city: 'Hamburg' } }]);
    await page.setViewportSize(DESKTOP);
  });
});
