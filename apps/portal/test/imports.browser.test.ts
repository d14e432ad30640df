// Importing domains from a file: choose it, preview the dry run's plan (a row's error shown), confirm,
// follow the job's progress to the results; a file too large is refused before it is sent, and the
// API's refusal of a file is said at the file field.
import type { Page } from 'playwright-core';
import { IMPORT_MAX_FILE_BYTES } from '@platform/contracts';
import { waitFor } from '@platform/testing';
import * as seed from './support/fake-data';
import { PHONE, portalTestBed, screenshot, seriousViolations, settled } from './support/browser';

const bed = portalTestBed();

const CSV = [
  'domain,company legal name,e-mail',
  'first-import.example.com,First Ltd,ada@first.example',
  'second-import.example.com,Second Ltd,bob@second.example',
  'third-import.example.com,Third Ltd,not-an-email',
].join('\n');
const csvFile = (text: string, name = 'domains.csv') => ({ name, mimeType: 'text/csv', buffer: Buffer.from(text) });

/** The import screen, reached from the Domains list's header link. */
async function openImport(page: Page) {
  await page.goto(bed.api.url('/domains'));
  await page.getByRole('link', { name: 'Import domains' }).click();
  await page.getByRole('heading', { level: 1, name: 'Import domains' }).waitFor();
  await settled(page);
}

const importCalls = () => bed.api.calls.filter((c) => c.operationId === 'createDomainImport');
/** A hold on the fake's answers to the import's polls, released by the test. */
function holdPolls() {
  let release = () => {};
  bed.api.held.set('getDomainImport', new Promise<void>((resolve) => (release = resolve)));
  return release;
}

describe('importing domains', () => {
  it('when a file is previewed and confirmed, then the plan shows the row in error, a progress bar follows the job, and the results link the created domain and say why a row failed', async () => {
    const page = await bed.page();
    await openImport(page);
    const template = await page.request.get(
      new URL((await page.getByRole('link', { name: 'CSV' }).getAttribute('href'))!, bed.api.origin).href,
    );
    expect(template.status()).toBe(200);
    expect(await template.text()).toMatch(/^domain,company name,company legal name,/);

    await page.getByLabel('File', { exact: true }).setInputFiles(csvFile(CSV));
    await page.getByText('domains.csv (1 KB)').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'desktop-import-chosen');
    await page.getByRole('button', { name: 'Preview' }).click();

    await page.getByRole('heading', { name: 'Preview of domains.csv' }).waitFor();
    const plan = page.getByRole('definition');
    expect(await plan.allTextContents()).toEqual(['2', '0', '0', '0', '1']);
    const errors = page.getByRole('region', { name: 'Rows with errors' });
    const row = errors.getByRole('row', { name: /third-import\.example\.com/ });
    expect(await row.getByRole('cell').first().textContent()).toBe('4');
    expect(await row.textContent()).toContain('e-mail: must be an e-mail address');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'desktop-import-preview');
    expect(importCalls().map((c) => (c.body as { dry_run: string }).dry_run)).toEqual(['true']);

    const releaseFirst = holdPolls();
    await page.getByRole('button', { name: 'Import 2 domains' }).click();
    const bar = page.getByRole('progressbar', { name: 'Import progress' });
    await bar.waitFor();
    expect([await bar.getAttribute('aria-valuenow'), await bar.getAttribute('aria-valuemax')]).toEqual(['0', '2']);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'desktop-import-progress');
    // The same file and choices, now for real.
    const sent = importCalls().map((c) => c.body as { dry_run: string; asset: { filename: string } });
    expect(sent.map((b) => [b.dry_run, b.asset.filename])).toEqual([
      ['true', 'domains.csv'],
      ['false', 'domains.csv'],
    ]);

    // Someone makes the second domain while the job runs: its create fails there.
    bed.api.state.domains.unshift(seed.domain(99, 'NEW', 0, 'second-import.example.com'));
    await waitFor(() => (bed.api.calls.some((c) => c.operationId === 'getDomainImport') ? true : undefined), {
      timeoutMs: 10_000,
      what: 'the first poll of the import',
    });
    const releaseSecond = holdPolls();
    releaseFirst();
    await page.locator('[role="progressbar"][aria-valuenow="1"]').waitFor();
    await screenshot(page, 'desktop-import-progress-half');
    releaseSecond();

    await page.getByRole('heading', { name: 'Results' }).waitFor();
    await settled(page);
    expect(await page.getByRole('definition').allTextContents()).toEqual(['1', '1', '0', '1']);
    const rows = page.getByRole('region', { name: 'Imported rows' });
    expect(await rows.getByRole('row', { name: /second-import/ }).textContent()).toContain(
      'The domain is already registered.',
    );
    expect(await rows.getByRole('row', { name: /third-import/ }).textContent()).toContain('Skipped');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'desktop-import-results');
    await rows.getByRole('link', { name: 'first-import.example.com' }).click();
    await page.getByRole('heading', { level: 1, name: 'first-import.example.com' }).waitFor();
    expect(bed.api.state.domains.find((d) => d.hostname === 'first-import.example.com')?.source).toBe('IMPORT');
    expect(bed.consoleErrors).toEqual([]);
  });

  it('when the file is larger than the API takes, then the field says so and nothing is sent', async () => {
    const page = await bed.page();
    await openImport(page);
    const big = csvFile('domain\n'.padEnd(IMPORT_MAX_FILE_BYTES + 1, 'x'), 'huge.csv');
    await page.getByLabel('File', { exact: true }).setInputFiles(big);
    const field = page.getByLabel('File', { exact: true });
    await page.getByText('the most that can be imported is 10.0 MB').waitFor();
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    await page.getByRole('button', { name: 'Preview' }).click();
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    expect(importCalls()).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'desktop-import-too-large');
  });

  it('when the API refuses the file (400 IMPORT.INVALID_FILE), then its message shows at the file field', async () => {
    const page = await bed.page();
    await openImport(page);
    await page
      .getByLabel('File', { exact: true })
      .setInputFiles(csvFile('hostname,e-mail\nshop.example.com,a@b.example\n'));
    await page.getByRole('button', { name: 'Preview' }).click();
    const field = page.getByLabel('File', { exact: true });
    await page.getByText('The header row has no "domain" column (see the template).').waitFor();
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    const describedBy = ((await field.getAttribute('aria-describedby')) ?? '').split(' ');
    const said = await Promise.all(describedBy.map((id) => page.locator(`[id="${id}"]`).textContent()));
    expect(said).toContain('The header row has no "domain" column (see the template).');
    expect(importCalls()).toHaveLength(1);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'desktop-import-invalid-file');
  });

  it('when a plan is previewed on a 390 px phone, then it reads without sideways scrolling', async () => {
    const page = await bed.page({ viewport: PHONE });
    await page.goto(bed.api.url('/domains/import'));
    await page.getByLabel('File', { exact: true }).setInputFiles(csvFile(CSV));
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.getByRole('button', { name: 'Import 2 domains' }).waitFor();
    const overflow = await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth');
    expect(overflow).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'phone-import-preview');
  });
});
