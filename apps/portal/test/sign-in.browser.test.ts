// Signing in by magic link (the token in the address's hash, POSTed, never kept), with and without
// TOTP, an expired link, and a partner that requires two-factor enrolment.
import { FAKE_TOTP_CODE } from './support/fake-state';
import { portalTestBed, screenshot, seriousViolations, settled } from './support/browser';

const bed = portalTestBed();

describe('sign-in', () => {
  it('when a user asks for a link and opens it, then the token is exchanged once and they land on the dashboard', async () => {
    const page = await bed.page({ userId: null });
    await page.goto(bed.api.url('/domains'));
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/app/sign-in');
    await screenshot(page, 'sign-in');
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByLabel('E-mail address').fill('ada@acme.example');
    await page.getByRole('button', { name: 'E-mail me a sign-in link' }).click();
    await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();
    await screenshot(page, 'sign-in-check-email');
    expect(await seriousViolations(page)).toEqual([]);

    const token = bed.api.state.linksSent.get('ada@acme.example')!;
    await page.goto(bed.api.url(`/sign-in#token=${token}`));
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    expect(new URL(page.url()).pathname).toMatch(/^\/app\/?$/);
    const exchanges = bed.api.calls.filter((c) => c.operationId === 'createSession');
    expect(exchanges).toEqual([expect.objectContaining({ method: 'post', body: { token } })]);
    expect(bed.consoleErrors).toEqual([]);
  });

  it('when the address is unknown, then the answer is the same "check your e-mail"', async () => {
    const page = await bed.page({ userId: null });
    await page.goto(bed.api.url('/sign-in'));
    await page.getByLabel('E-mail address').fill('nobody@else.example');
    await page.getByRole('button', { name: 'E-mail me a sign-in link' }).click();
    await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();
    expect(bed.api.state.linksSent.size).toBe(0);
  });

  it('when a link was already used, then the page says so and offers the form again', async () => {
    const page = await bed.page({ userId: null });
    await page.goto(bed.api.url('/sign-in#token=used-or-made-up'));
    await page.getByText('This sign-in link has expired or was already used').waitFor();
    await page.getByLabel('E-mail address').waitFor();
    expect(page.url()).toBe(bed.api.url('/sign-in'));
    await screenshot(page, 'sign-in-expired-link');
  });

  it('when the user has TOTP, then the second step asks for the code; a wrong one shows the error at the field', async () => {
    const page = await bed.page({ userId: null });
    await page.goto(bed.api.url(`/sign-in#token=${bed.api.state.issueToken('usr_totp')}`));
    await page.getByRole('heading', { name: 'Two-factor authentication' }).waitFor();
    const code = page.getByLabel('6-digit code');
    expect(await code.evaluate((el) => el === (el.ownerDocument.activeElement as unknown))).toBe(true);
    expect(await code.getAttribute('autocomplete')).toBe('one-time-code');
    expect(await code.getAttribute('inputmode')).toBe('numeric');
    await screenshot(page, 'sign-in-two-factor');
    expect(await seriousViolations(page)).toEqual([]);
    await code.fill('000000');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText('is not the current code').waitFor();
    expect(await code.getAttribute('aria-invalid')).toBe('true');
    await code.fill(FAKE_TOTP_CODE);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
  });

  it('when the partner requires 2FA and the user has none, then they enrol (QR, key, recovery codes) before anything else', async () => {
    bed.api.state.settings.totp_required = true;
    const page = await bed.page({ userId: null });
    await page.goto(bed.api.url(`/sign-in#token=${bed.api.state.issueToken('usr_dev')}`));
    await page.getByRole('heading', { name: 'Set up two-factor authentication' }).waitFor();
    await page.getByRole('img', { name: 'QR code to scan with your authenticator app' }).waitFor();
    await settled(page);
    await screenshot(page, 'sign-in-enrol-two-factor');
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByLabel('6-digit code').fill(FAKE_TOTP_CODE);
    await page.getByRole('button', { name: 'Turn on two-factor authentication' }).click();
    await page.getByRole('list', { name: 'Recovery codes' }).waitFor();
    expect(await page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem').count()).toBe(10);
    await page.getByRole('button', { name: 'I saved them, continue' }).click();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    expect(bed.consoleErrors).toEqual([]);
  });

  it('when the user signs out, then the session is deleted and the sign-in page shows', async () => {
    const page = await bed.page();
    await page.goto(bed.api.url('/'));
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(bed.api.calls.filter((c) => c.operationId === 'deleteSession')).toHaveLength(1);
    expect(bed.api.state.sessions.size).toBe(0);
  });
});
