// The portal calls the API through @platform/client: every write carries an Idempotency-Key (the
// same on its retry), and a busy answer (503 with Retry-After) is sent again instead of shown.
import { portalTestBed } from './support/browser';

const bed = portalTestBed();
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('the API client', () => {
  it('when the portal writes, then every write carries an Idempotency-Key of its own, the same on its retry', async () => {
    bed.api.failNext('createApiKey', 503, { 'Retry-After': '0' });
    const page = await bed.page();
    await page.goto(bed.api.url('/integrations/api-keys'));
    await page.getByRole('button', { name: 'Create API key' }).click();
    const form = page.getByRole('dialog', { name: 'Create API key' });
    await form.getByLabel('Name').fill('Nightly export');
    await form.getByRole('button', { name: 'Create key' }).click();
    await page
      .getByRole('dialog', { name: 'Your new API key' })
      .getByRole('button', { name: 'Done, I copied it' })
      .click();
    await page.getByRole('button', { name: 'Revoke Shop sync' }).click();
    await page.getByRole('dialog', { name: 'Revoke “Shop sync”?' }).getByRole('button', { name: 'Revoke key' }).click();
    await page
      .getByRole('row', { name: /Shop sync/ })
      .getByText('Revoked')
      .waitFor();

    const writes = bed.api.calls.filter((c) => c.method !== 'get');
    expect(writes.map((c) => c.operationId)).toEqual(['createApiKey', 'createApiKey', 'revokeApiKey']);
    for (const write of writes) expect(write.idempotencyKey).toMatch(UUID);
    const [first, retry, revoke] = writes.map((c) => c.idempotencyKey);
    expect(retry).toBe(first);
    expect(revoke).not.toBe(first);
    expect(bed.api.calls.filter((c) => c.method === 'get').every((c) => c.idempotencyKey === undefined)).toBe(true);
  });

  it('when a read answers 503 with Retry-After: 0, then it is sent once more and the screen shows the data', async () => {
    bed.api.failNext('listDomains', 503, { 'Retry-After': '0' });
    const page = await bed.page();
    await page.goto(bed.api.url('/domains'));
    await page.getByRole('link', { name: 'shop1.example.com' }).waitFor();
    expect(bed.api.calls.filter((c) => c.operationId === 'listDomains')).toHaveLength(2);
    expect(await page.getByRole('alert').count()).toBe(0);
  });
});
