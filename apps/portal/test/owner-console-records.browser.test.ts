// The owner console's Consent records: the newest records in pages, filters kept in the address (parsed
// with the contract's query schema), a record's detail in a dialog (Escape closes it, focus returns), the
// CSV export of the same filter as a download, the empty states, and the screens at 1280 px and 390 px.
import { readFileSync } from 'node:fs';
import { waitFor } from '@platform/testing';
import { DESKTOP, PHONE, portalTestBed, settled } from './support/browser';
import { checkScreen } from './support/screen';

const bed = portalTestBed();
const RECORDS = '/owner/domains/dom_0004/records';

describe('owner console: consent records', () => {
  it('when the owner pages and filters the records, then the address keeps the filter, and back returns to it', async () => {
    const page = await bed.page({ userId: null, ownerId: 'own_shop' });
    await page.goto(bed.api.url(RECORDS));
    const table = page.getByRole('region', { name: 'Consent records' });
    await table.locator('tbody tr').first().waitFor();
    expect(await table.locator('tbody tr').count()).toBe(20);
    await checkScreen(bed, page, 'desktop-owner-records');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Page 2').waitFor();
    await settled(page);
    expect(page.url()).toBe(bed.api.url(`${RECORDS}?page=2`));

    await page.getByLabel('Choice').selectOption({ label: 'Denied' });
    await page.waitForURL(bed.api.url(`${RECORDS}?receipt_status=DENIED`));
    // The last rows stay (said busy) until the filtered ones come.
    await waitFor(async () => ((await table.getByText('Allowed all').count()) === 0 ? true : undefined), {
      timeoutMs: 10_000,
      what: 'the denied records only',
    });
    expect(await table.locator('tbody tr').count()).toBe(15);
    await page.getByLabel('Type').selectOption({ label: 'Video privacy (VPPA)' });
    await page.waitForURL(bed.api.url(`${RECORDS}?receipt_status=DENIED&receipt_type=VPPA`));
    await page.getByText('No records match').waitFor();
    await checkScreen(bed, page, 'desktop-owner-records-no-match');
    await page.goBack();
    await page.waitForURL(bed.api.url(`${RECORDS}?receipt_status=DENIED`));
    expect(await page.getByLabel('Choice').inputValue()).toBe('DENIED');
    expect(await page.getByLabel('Type').inputValue()).toBe('');
    // A hand-edited value the schema refuses is dropped, never sent.
    await page.goto(bed.api.url(`${RECORDS}?receipt_type=SOMETHING&receipt_status=PARTIAL`));
    await settled(page);
    await table.getByText('Allowed some').first().waitFor();
    expect(await table.getByText('Allowed all').count()).toBe(0);
    expect(await page.getByLabel('Type').inputValue()).toBe('');
    expect(await page.getByRole('alert').count()).toBe(0);
  });

  it('when the owner opens a record, then its detail shows in a dialog; Escape closes it and focus returns to its button', async () => {
    const page = await bed.page({ userId: null, ownerId: 'own_shop' });
    await page.goto(bed.api.url(RECORDS));
    const first = page.getByRole('button', { name: /^Details of the record of/ }).first();
    await first.click();
    const dialog = page.getByRole('dialog', { name: 'Consent record' });
    await dialog.getByText(/^RCPT_[0-9a-f]{32}$/).waitFor();
    await dialog.getByText('Necessary: allowed').waitFor();
    await dialog.getByText('Marketing: allowed').waitFor();
    await dialog.getByText('Berlin, DE').waitFor();
    await checkScreen(bed, page, 'desktop-owner-record');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await first.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
  });

  it('when the owner exports, then the CSV of the current filter downloads', async () => {
    const page = await bed.page({ userId: null, ownerId: 'own_shop' });
    await page.goto(bed.api.url(`${RECORDS}?receipt_status=PARTIAL`));
    await page.getByRole('region', { name: 'Consent records' }).locator('tbody tr').first().waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('consent-records-shop4.example.com.csv');
    expect(download.url()).toBe(
      `${bed.api.origin}/portal/owner/domains/dom_0004/records/export?receipt_status=PARTIAL`,
    );
    const lines = readFileSync((await download.path())!, 'utf8')
      .trim()
      .split('\n');
    expect(lines[0]).toBe('receipt_id,created_at,receipt_type,receipt_status,country,region,jurisdiction,subject');
    expect(lines).toHaveLength(16);
    expect(lines.slice(1).every((l) => l.split(',')[3] === 'PARTIAL')).toBe(true);
  });

  it('when the website has no records yet, then the screen says when they come', async () => {
    const page = await bed.page({ userId: null, ownerId: 'own_multi' });
    await page.goto(bed.api.url('/owner/domains/dom_0012/records'));
    await page.getByText('No consent records yet').waitFor();
    await checkScreen(bed, page, 'desktop-owner-records-empty');
  });

  it('on a 390 px phone, the records and a record fit, and a VIEWER reads them too', async () => {
    const page = await bed.page({ viewport: PHONE, userId: null, ownerId: 'own_viewer' });
    await page.goto(bed.api.url(RECORDS));
    await page.getByRole('region', { name: 'Consent records' }).locator('tbody tr').first().waitFor();
    await checkScreen(bed, page, 'phone-owner-records');
    await page
      .getByRole('button', { name: /^Details of the record of/ })
      .first()
      .click();
    await page.getByRole('dialog', { name: 'Consent record' }).waitFor();
    await checkScreen(bed, page, 'phone-owner-record');
    await page.setViewportSize(DESKTOP);
  });

  it('when the records fail to load, then the error says so and Try again reads them again', async () => {
    bed.api.failing.set('listOwnerRecords', 503);
    const page = await bed.page({ userId: null, ownerId: 'own_shop' });
    await page.goto(bed.api.url(RECORDS));
    await page.getByRole('button', { name: 'Try again' }).waitFor({ timeout: 15_000 });
    await checkScreen(bed, page, 'desktop-owner-records-error');
    bed.api.failing.clear();
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByRole('region', { name: 'Consent records' }).locator('tbody tr').first().waitFor();
  });
});
