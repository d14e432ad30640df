// The domain list's bulk product change on a selection, and a domain's page with its consent records.
import { portalTestBed, screenshot, seriousViolations, settled } from './support/browser';

const bed = portalTestBed();

describe('domains', () => {
  it('when domains are selected, then one bulk call changes their product and the page says how many changed', async () => {
    const page = await bed.page();
    await page.goto(bed.api.url('/domains'));
    await page.getByRole('checkbox', { name: 'Select shop1.example.com' }).check();
    await page.getByRole('checkbox', { name: 'Select shop2.example.com' }).check();
    const bar = page.getByRole('region', { name: 'Change the selected domains' });
    await bar.getByLabel('Product for 2 selected').selectOption('PRO');
    await screenshot(page, 'desktop-domains-bulk-selection');
    expect(await seriousViolations(page)).toEqual([]);
    await bar.getByRole('button', { name: 'Change product' }).click();
    await bar.getByRole('status').filter({ hasText: '2 changed' }).waitFor();
    expect(await page.getByRole('checkbox', { name: 'Select shop1.example.com' }).isChecked()).toBe(false);
    const calls = bed.api.calls.filter((c) => c.operationId === 'bulkChangeSubscriptionProduct');
    expect(calls.map((c) => c.body)).toEqual([
      {
        domains: [
          { id: 'dom_0001', product: 'PRO' },
          { id: 'dom_0002', product: 'PRO' },
        ],
      },
    ]);
  });

  it("when an active domain's page opens, then its newest consent records are listed", async () => {
    const page = await bed.page();
    await page.goto(bed.api.url('/domains/dom_0004'));
    const records = page.getByRole('region', { name: 'Consent records', exact: true });
    await records.getByRole('cell', { name: 'PARTIAL' }).waitFor();
    await settled(page);
    expect(await records.getByRole('row').count()).toBe(4);
    expect(bed.api.calls.find((c) => c.operationId === 'listRecords')?.path).toBe('/portal/instance/company/records');
  });
});
