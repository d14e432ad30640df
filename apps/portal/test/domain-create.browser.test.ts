// Creating a domain: the form validates with the API's schema before sending, shows the API's own
// field errors next to their fields, and opens the new domain's page with its snippet.
import { portalTestBed, screenshot, seriousViolations } from './support/browser';

const bed = portalTestBed();

async function fill(page: import('playwright-core').Page, values: Record<string, string>) {
  for (const [label, value] of Object.entries(values)) await page.getByLabel(label, { exact: true }).fill(value);
}

describe('creating a domain', () => {
  it('when the schema refuses a field, then its message shows at that field and nothing is sent', async () => {
    const page = await bed.page();
    await page.goto(bed.api.url('/domains/new'));
    await fill(page, { Domain: 'not a host name', 'Company name': 'Acme', "Owner's e-mail": 'nope' });
    await page.getByRole('button', { name: 'Create domain' }).click();
    const email = page.getByLabel("Owner's e-mail");
    await page.getByText('must be an e-mail address').waitFor();
    expect(await email.getAttribute('aria-invalid')).toBe('true');
    expect(bed.api.calls.some((c) => c.operationId === 'createDomain')).toBe(false);
  });

  it("when the API refuses a field, then the API's message shows next to that field", async () => {
    bed.api.state.settings.required_fields = ['phone_number'];
    const page = await bed.page();
    await page.goto(bed.api.url('/domains/new'));
    await fill(page, {
      Domain: 'https://New-Shop.example.org/path',
      'Company name': 'New Shop',
      "Owner's e-mail": 'Olga@New-Shop.example.org',
    });
    await page.getByRole('button', { name: 'Create domain' }).click();
    const phone = page.getByLabel('Phone number');
    await page.getByText('is required by your onboarding settings').waitFor();
    expect(await phone.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await phone.getAttribute('aria-describedby')) ?? '';
    expect(await page.locator(`[id="${describedBy}"]`).textContent()).toBe('is required by your onboarding settings');
    await screenshot(page, 'desktop-domain-create-field-error');
    expect(await seriousViolations(page)).toEqual([]);
    // The body sent is the schema's output: hostname normalised, e-mail lowercased, defaults filled.
    expect(bed.api.calls.find((c) => c.operationId === 'createDomain')?.body).toMatchObject({
      domain: 'new-shop.example.org',
      account_email: 'olga@new-shop.example.org',
      action: 'CREATE_SILENT',
    });

    await phone.fill('+49 30 1234');
    await page.getByRole('button', { name: 'Create domain' }).click();
    await page.getByRole('heading', { level: 1, name: 'new-shop.example.org' }).waitFor();
    await page.getByText('The domain was created.').waitFor();
    await page.getByRole('button', { name: 'Copy snippet' }).waitFor();
  });

  it('when the domain exists already, then the conflict shows at the domain field', async () => {
    const page = await bed.page();
    await page.goto(bed.api.url('/domains/new'));
    await fill(page, { Domain: 'shop1.example.com', 'Company name': 'Shop', "Owner's e-mail": 'o@shop1.example.com' });
    await page.getByRole('button', { name: 'Create domain' }).click();
    await page.getByText('The domain is already registered.').waitFor();
    expect(await page.getByLabel('Domain', { exact: true }).getAttribute('aria-invalid')).toBe('true');
  });
});
