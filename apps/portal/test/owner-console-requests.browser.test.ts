// The owner console's Requests inbox: the website's data subject requests with their due dates (an
// overdue one marked in words, not colour alone), the status filter in the address, a request's
// detail and the owner's actions in a dialog (keyboard only), a VIEWER reading without actions, the
// empty, loading-error and phone (390 px) screens, each checked with axe-core.
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { waitFor } from '@platform/testing';
import { DESKTOP, PHONE, portalTestBed, settled } from './support/browser';
import { checkScreen } from './support/screen';

const bed = portalTestBed();
const REQUESTS = '/owner/domains/dom_0004/requests';
const SHOTS = '/tmp/shots';
const updates = () => bed.api.calls.filter((c) => c.operationId === 'updateOwnerRequest');
const table = (page: Page) => page.getByRole('region', { name: 'Data subject requests' });
const shot = async (page: Page, name: string) => {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png` });
};

describe('owner console: requests inbox', () => {
  it('when the owner opens the inbox, then each request shows its status and due date, the overdue one says so, and the status filter is kept in the address', async () => {
    const page = await bed.page({ userId: null, ownerId: 'own_shop' });
    await page.goto(bed.api.url(REQUESTS));
    await page.getByRole('heading', { level: 1, name: 'Requests' }).waitFor();
    await table(page).locator('tbody tr').first().waitFor();
    expect(await table(page).locator('tbody tr').count()).toBe(6);
    const overdue = table(page).locator('tr.request-overdue');
    expect(await overdue.count()).toBe(1);
    expect(await overdue.getByText('Overdue').count()).toBe(1);
    expect(await overdue.locator('time').textContent()).toBe('2026-11-23');
    await checkScreen(bed, page, 'desktop-owner-requests');
    await shot(page, 'dsar-portal-inbox');

    await page.getByLabel('Status').selectOption({ label: 'In progress' });
    await page.waitForURL(bed.api.url(`${REQUESTS}?status=IN_PROGRESS`));
    // The address changes before the list asks for the filtered page: wait for its one row.
    await waitFor(async () => ((await table(page).locator('tbody tr').count()) === 1 ? true : undefined), {
      what: 'the one request in progress',
    });
    await settled(page);
    await page.getByLabel('Status').selectOption({ label: 'Rejected' });
    await page.getByText('No requests match').waitFor();
    await page.goBack();
    await page.waitForURL(bed.api.url(`${REQUESTS}?status=IN_PROGRESS`));
    expect(await page.getByLabel('Status').inputValue()).toBe('IN_PROGRESS');
  });

  it('when the owner works a request with the keyboard, then it moves on, the deadline extends once, a rejection needs a note, and Escape returns focus', async () => {
    const page = await bed.page({ userId: null, ownerId: 'own_shop' });
    await page.goto(bed.api.url(REQUESTS));
    const overdueRow = table(page).locator('tr.request-overdue');
    await overdueRow.waitFor();
    const id = (await overdueRow.getAttribute('data-request-id'))!;
    const details = table(page).getByRole('button', { name: `Details of request ${id}` });
    await details.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Data subject request' });
    await dialog.getByText('Please delete my account and my order history.').waitFor();
    await checkScreen(bed, page, 'desktop-owner-request');
    await shot(page, 'dsar-portal-detail');

    await dialog.getByLabel('Reason for an extension').fill('The order history is kept by our shop system vendor.');
    await dialog.getByRole('button', { name: /^Extend deadline/ }).press('Enter');
    await dialog.getByText(/extended: The order history is kept/).waitFor();
    expect(await table(page).locator('tr.request-overdue').count()).toBe(0);
    expect(await dialog.getByLabel('Reason for an extension').count()).toBe(0); // once per request

    await dialog.getByRole('button', { name: 'Reject' }).press('Enter');
    await dialog.getByRole('alert').getByText('Say why in the note: the requester is told.').waitFor();
    await dialog.getByRole('button', { name: 'Start work' }).press('Enter');
    await dialog.getByText('In progress', { exact: true }).waitFor();
    await dialog.getByLabel(/^Note/).fill('Your account and orders are deleted.');
    await dialog.getByRole('button', { name: 'Complete' }).press('Enter');
    await dialog.getByText('Completed', { exact: true }).waitFor();
    expect(await dialog.getByRole('button', { name: 'Complete' }).count()).toBe(0);
    expect(updates().map((c) => c.body)).toEqual([
      { extend: { reason: 'The order history is kept by our shop system vendor.' } },
      { status: 'IN_PROGRESS' },
      { status: 'COMPLETED', note: 'Your account and orders are deleted.' },
    ]);
    expect(updates().every((c) => c.csrf === [...bed.api.state.ownerSessions.values()][0].csrf)).toBe(true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await details.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
  });

  it('on a 390 px phone a VIEWER reads the inbox and a request, without actions', async () => {
    const page = await bed.page({ viewport: PHONE, userId: null, ownerId: 'own_viewer' });
    await page.goto(bed.api.url(REQUESTS));
    await table(page).locator('tbody tr').first().waitFor();
    await checkScreen(bed, page, 'phone-owner-requests');
    await shot(page, 'dsar-portal-phone');
    await table(page)
      .getByRole('button', { name: /^Details of request/ })
      .first()
      .click();
    const dialog = page.getByRole('dialog', { name: 'Data subject request' });
    await dialog.getByText('History', { exact: true }).waitFor();
    expect(await dialog.getByRole('button', { name: 'Complete' }).count()).toBe(0);
    await checkScreen(bed, page, 'phone-owner-request');
    await page.setViewportSize(DESKTOP);
  });

  it('when the website has no requests, or they fail to load, then the screen says so and Try again reads them again', async () => {
    const empty = await bed.page({ userId: null, ownerId: 'own_multi' });
    await empty.goto(bed.api.url('/owner/domains/dom_0012/requests'));
    await empty.getByText('No requests yet').waitFor();
    await checkScreen(bed, empty, 'desktop-owner-requests-empty');
    bed.api.failing.set('listOwnerRequests', 503);
    const page = await bed.page({ userId: null, ownerId: 'own_shop' });
    await page.goto(bed.api.url(REQUESTS));
    await page.getByRole('button', { name: 'Try again' }).waitFor({ timeout: 15_000 });
    await checkScreen(bed, page, 'desktop-owner-requests-error');
    bed.api.failing.clear();
    await page.getByRole('button', { name: 'Try again' }).click();
    await table(page).locator('tbody tr').first().waitFor();
  });
});
