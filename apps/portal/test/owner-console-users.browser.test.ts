// The owner console's Users: the account's people with role and access; invite (the roles the inviter may
// give), change a role, turn access off or on, remove (confirmed); the last owner's 409 said plainly;
// an admin cannot touch owners, and a VIEWER sees the list read-only.
import type { Page } from 'playwright-core';
import { waitFor } from '@platform/testing';
import { DESKTOP, PHONE, portalTestBed } from './support/browser';
import { checkScreen } from './support/screen';

const bed = portalTestBed();
const USERS = '/owner/domains/dom_0004/users';
const calls = (operationId: string) => bed.api.calls.filter((c) => c.operationId === operationId);

async function open(page: Page) {
  await page.goto(bed.api.url(USERS));
  await page.getByRole('region', { name: 'Users' }).locator('tbody tr').first().waitFor();
  return page.getByRole('region', { name: 'Users' });
}
/** Waits for the user's role select to show `role` (the list is read again after a change). */
const roleIs = (page: Page, who: string, role: string) =>
  waitFor(async () => ((await page.getByLabel(`Role of ${who}`).inputValue()) === role ? true : undefined), {
    timeoutMs: 10_000,
    what: `${who}'s role to read ${role}`,
  });
const row = (page: Page, text: string) =>
  page.getByRole('region', { name: 'Users' }).getByRole('row').filter({ hasText: text });

describe('owner console: users', () => {
  it('when the owner invites, changes a role, turns access on and removes, then each is sent and the list follows', async () => {
    const page = await bed.page({ userId: null, ownerId: 'own_shop' });
    const table = await open(page);
    expect(await table.locator('tbody tr').count()).toBe(4);
    await row(page, 'Olga Owner').getByText('(you)').waitFor();
    await row(page, 'otto@shop4.example.com').getByText('Off').waitFor();
    await checkScreen(bed, page, 'desktop-owner-users');

    await page.getByRole('button', { name: 'Invite user' }).click();
    const dialog = page.getByRole('dialog', { name: 'Invite a user' });
    expect(await dialog.getByLabel('Role').locator('option').allTextContents()).toEqual([
      'Owner: everything, owners included',
      'Admin: changes settings and users',
      'Viewer: looks, changes nothing',
    ]);
    await dialog.getByLabel('E-mail address').fill('vera@shop4.example.com');
    await dialog.getByRole('button', { name: 'Send invitation' }).click();
    await dialog.getByText('This address already has access to your account.').waitFor();
    await checkScreen(bed, page, 'desktop-owner-users-invite');
    await dialog.getByLabel('E-mail address').fill('Nora@Shop4.example.com');
    await dialog.getByLabel('Name (optional)').fill('Nora New');
    await dialog.getByLabel('Role').selectOption('ADMIN');
    await dialog.getByRole('button', { name: 'Send invitation' }).click();
    await row(page, 'Nora New').waitFor();
    expect(calls('inviteOwnerUser').at(-1)?.body).toEqual({
      email: 'nora@shop4.example.com',
      name: 'Nora New',
      role: 'ADMIN',
    });

    await page.getByLabel('Role of Adam Admin').selectOption('VIEWER');
    await roleIs(page, 'Adam Admin', 'VIEWER');
    expect(calls('updateOwnerUser').at(-1)?.body).toEqual({ role: 'VIEWER' });
    await page.getByRole('button', { name: 'Turn access on for otto@shop4.example.com' }).click();
    await row(page, 'otto@shop4.example.com').getByText('On', { exact: true }).waitFor();
    expect(calls('updateOwnerUser').at(-1)?.body).toEqual({ access: true });

    await page.getByRole('button', { name: 'Remove Vera Viewer' }).click();
    const confirm = page.getByRole('dialog', { name: 'Remove vera@shop4.example.com?' });
    await confirm.getByRole('button', { name: 'Remove user' }).click();
    await page.getByText('The user was removed. Their sessions ended.').waitFor();
    expect(await row(page, 'Vera Viewer').count()).toBe(0);
  });

  it('when the only owner demotes or removes themselves, then the console says why it cannot (409), and nothing changes', async () => {
    const page = await bed.page({ userId: null, ownerId: 'own_shop' });
    await open(page);
    await page.getByLabel('Role of Olga Owner').selectOption('ADMIN');
    await page
      .getByRole('alert')
      .getByText(
        'Olga Owner: You are the account’s only owner with access. Make someone else an owner first, then try again.',
      )
      .waitFor();
    expect(await page.getByLabel('Role of Olga Owner').inputValue()).toBe('OWNER');
    await checkScreen(bed, page, 'desktop-owner-users-last-owner');
    await page.getByRole('button', { name: 'Remove Olga Owner' }).click();
    const confirm = page.getByRole('dialog', { name: 'Remove yourself from the account?' });
    await confirm.getByRole('button', { name: 'Remove me' }).click();
    await confirm
      .getByRole('alert')
      .getByText('You are the account’s only owner with access.', { exact: false })
      .waitFor();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    expect(bed.api.state.ownerUsers.get('own_shop')?.role).toBe('OWNER');
  });

  it('when the owner makes another owner first, then they may step down to admin, and the console follows their new role', async () => {
    const page = await bed.page({ userId: null, ownerId: 'own_shop' });
    await open(page);
    await page.getByLabel('Role of Adam Admin').selectOption('OWNER');
    await roleIs(page, 'Adam Admin', 'OWNER');
    await page.getByLabel('Role of Olga Owner').selectOption('ADMIN');
    await page.getByRole('banner').getByText('· Admin').waitFor();
    // An admin does not touch owners: Adam's row has no controls now, and Owner is no longer offered.
    expect(await page.getByLabel('Role of Adam Admin').count()).toBe(0);
    expect(await page.getByLabel('Role of Olga Owner').locator('option').allTextContents()).toEqual([
      'Admin',
      'Viewer',
    ]);
  });

  it('when an ADMIN opens it, then owners are read-only and Owner is not offered', async () => {
    const page = await bed.page({ userId: null, ownerId: 'own_admin' });
    await open(page);
    expect(await page.getByLabel('Role of Olga Owner').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Remove Olga Owner' }).count()).toBe(0);
    expect(await page.getByLabel('Role of Vera Viewer').locator('option').allTextContents()).toEqual([
      'Admin',
      'Viewer',
    ]);
    await page.getByRole('button', { name: 'Invite user' }).click();
    expect(await page.getByRole('dialog', { name: 'Invite a user' }).getByLabel('Role').locator('option').count()).toBe(
      2,
    );
  });

  it('when a VIEWER opens it, then the list is read-only: no invite, no controls (at 1280 px and on a phone)', async () => {
    const page = await bed.page({ userId: null, ownerId: 'own_viewer' });
    await open(page);
    await page.getByText('You can see who has access. Ask an admin or the owner to change it.').waitFor();
    expect(await page.getByRole('button', { name: 'Invite user' }).count()).toBe(0);
    expect(await page.getByRole('region', { name: 'Users' }).locator('select, button').count()).toBe(0);
    await checkScreen(bed, page, 'desktop-owner-users-viewer');
    await page.setViewportSize(PHONE);
    await checkScreen(bed, page, 'phone-owner-users-viewer');
    await page.setViewportSize(DESKTOP);
  });

  it('on a 390 px phone, the owner’s users and their controls fit', async () => {
    const page = await bed.page({ viewport: PHONE, userId: null, ownerId: 'own_shop' });
    await open(page);
    await checkScreen(bed, page, 'phone-owner-users');
    await page.setViewportSize(DESKTOP);
  });
});
