// The owner console asks for its own links: an owner e-mail's approval_url opens the console's
// sign-in for the domain, where POST /portal/owner/sign-in-links e-mails a link to the domain's
// account_email (its OWNER is created then) or to an access user, and to no one else, with the
// same 202 either way; the partner links' throttles apply. Real gateway, domains-svc, SMTP, Chromium.
import { randomUUID } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { launchChromium } from '@platform/testing';
import { newPortalPage, portalUrl } from './support/portal-browser';
import { envelope, sharedSystem, type Partner, type System } from './support/system';

const LINKS = '/portal/owner/sign-in-links';
const OWNER_LINK = /http:\/\/[^\s"<>]+\/owner\/sign-in#token=[\w.~-]+/;
const APPROVAL_URL = /http:\/\/[^\s"<>]+\/owner\/sign-in\?domain=[\w-]+/;

describe("the owner console's sign-in links (asked for on the console, e-mailed by the gateway)", () => {
  let sys: System;
  let partner: Partner;
  let other: Partner;
  let browser: Browser;
  const suffix = randomUUID().slice(0, 8);
  const partnerName = `Owner Links ${suffix}`;

  beforeAll(async () => {
    sys = await sharedSystem();
    [partner, other] = await Promise.all([sys.partner(partnerName), sys.partner()]);
    browser = await launchChromium([]);
  });
  afterAll(async () => {
    await browser?.close();
    await sys?.close();
  });

  const createDomain = async (who: Partner) => {
    const hostname = `links-${randomUUID().slice(0, 8)}.example.com`;
    const res = await sys.arrange(who, 'POST', '/portal/domains', {
      domain: hostname,
      company_name: `Links ${hostname}`,
      account_email: `owner@${hostname}`,
      company_setup: true,
      action: 'CREATE_SILENT',
    });
    return { id: (res.body.result as { id: string }).id, hostname, owner: `owner@${hostname}` };
  };
  /** A request from its own client address (the tests are a trusted proxy), so no other test's links count against it. */
  const ask = (body: unknown, client: string) =>
    sys.call(undefined, 'POST', LINKS, body, { 'x-forwarded-for': client });
  const linkMailTo = (to: string) =>
    sys.smtp.waitForMessage((m) => m.to.includes(to) && m.subject.includes('your sign-in link'), 15_000);
  /** What the gateway queued for an address (its mail_queue), after the mail the test waited for was sent. */
  const queuedTo = async (to: string) => {
    const db = await sys.db();
    const rows = await db.query(
      "SELECT count(*)::int AS n FROM gateway.mail_queue WHERE to_address = $1 AND kind = 'owner.sign_in'",
      [to],
    );
    return rows.rows[0].n as number;
  };

  it("when the invitation's approval_url is followed and the account_email asks for a link, then the e-mailed link opens the console showing the domain", async () => {
    const d = await createDomain(partner);
    expect((await sys.call(partner, 'POST', `/portal/domains/${d.id}/invite`, { send_invite: true })).status).toBe(200);
    const invitation = await sys.smtp.waitForMessage((m) => m.to.includes(d.owner), 15_000);
    const approvalUrl = APPROVAL_URL.exec(invitation.decoded)?.[0];
    expect(approvalUrl).toBe(portalUrl(sys, `/owner/sign-in?domain=${d.id}`));

    const res = await ask({ email: d.owner.toUpperCase(), domain_id: d.id }, '10.27.0.1');
    expect([res.status, res.body]).toEqual([202, { result: { sent: true } }]);
    const mail = await linkMailTo(d.owner);
    expect(mail.subject).toBe(`${partnerName}: your sign-in link to your account console`);
    const link = OWNER_LINK.exec(mail.decoded)?.[0];
    expect(link).toBeDefined();

    const page = await newPortalPage(browser);
    await page.goto(link!);
    await page.getByRole('heading', { level: 1, name: 'Install the widget' }).waitFor();
    expect(page.url()).toBe(portalUrl(sys, `/owner/domains/${d.id}/install`));
    await page.getByRole('banner').getByText(partnerName, { exact: true }).waitFor();
    await page.getByRole('navigation', { name: 'Website' }).getByText(d.hostname).waitFor();
    await page.context().close();

    // The account owner became the customer's OWNER, as the partner sees them.
    const users = await sys.call(partner, 'GET', `/portal/instance/access/users?domain_id=${d.id}`);
    expect(users.body.result).toEqual([expect.objectContaining({ email: d.owner, role: 'OWNER', access: true })]);
  });

  it('when an access user of the customer asks, then they get a link; when their access is off, then nothing is sent but the answer is the same', async () => {
    const d = await createDomain(partner);
    const invited = await sys.call(partner, 'POST', `/portal/instance/access/users?domain_id=${d.id}`, {
      email: `viewer@${d.hostname}`,
      role: 'VIEWER',
    });
    expect(invited.status).toBe(201);
    await sys.smtp.waitForMessage((m) => m.to.includes(`viewer@${d.hostname}`), 15_000); // the invitation
    const res = await ask({ email: `viewer@${d.hostname}`, domain_id: d.id }, '10.27.0.2');
    expect(res.status).toBe(202);
    expect((await linkMailTo(`viewer@${d.hostname}`)).decoded).toMatch(OWNER_LINK);

    const userId = (invited.body.result as { id: string }).id;
    const off = await sys.call(partner, 'PATCH', `/portal/instance/access/users/${userId}?domain_id=${d.id}`, {
      access: false,
    });
    expect(off.status).toBe(200);
    const refused = await ask({ email: `viewer@${d.hostname}`, domain_id: d.id }, '10.27.0.2');
    expect([refused.status, refused.body]).toEqual([202, { result: { sent: true } }]);
    // Asked after it, the account owner's link arrives: by then the refused one was handled.
    expect((await ask({ email: d.owner, domain_id: d.id }, '10.27.0.2')).status).toBe(202);
    await linkMailTo(d.owner);
    expect(await queuedTo(`viewer@${d.hostname}`)).toBe(1);
  });

  it("when an unknown address, another partner's domain or no such domain is asked for, then the answer is the same 202 and nothing is sent", async () => {
    const d = await createDomain(partner);
    const theirs = await createDomain(other);
    const stranger = `stranger-${suffix}@example.com`;
    const answers = [
      await ask({ email: stranger, domain_id: d.id }, '10.27.0.3'),
      // The account_email of the partner's domain, with another partner's domain id: not that customer's.
      await ask({ email: d.owner, domain_id: theirs.id }, '10.27.0.3'),
      await ask({ email: d.owner, domain_id: randomUUID() }, '10.27.0.3'),
      await ask({ email: d.owner, domain_id: 'not-a-domain' }, '10.27.0.3'),
    ];
    for (const res of answers) expect([res.status, res.body]).toEqual([202, { result: { sent: true } }]);
    // Asked after them all, the account owner's own link arrives: by then the others were handled.
    expect((await ask({ email: d.owner, domain_id: d.id }, '10.27.0.3')).status).toBe(202);
    await linkMailTo(d.owner);
    expect(await queuedTo(stranger)).toBe(0);
    expect(await queuedTo(d.owner)).toBe(1);
    const none = await sys.call(other, 'GET', `/portal/instance/access/users?domain_id=${theirs.id}`);
    expect(none.body.result).toEqual([]);
  });

  it('when an address asks more often than the limit, then 429 RATE.LIMITED with Retry-After; a bad body is 400', async () => {
    const d = await createDomain(partner);
    const email = `often-${suffix}@example.com`;
    for (let i = 0; i < 5; i++) expect((await ask({ email, domain_id: d.id }, '10.27.0.4')).status).toBe(202);
    const limited = await ask({ email, domain_id: d.id }, '10.27.0.5');
    expect([limited.status, limited.body]).toEqual([429, envelope('RATE.LIMITED', 429)]);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    const bad = await ask({ email: 'not an address', domain_id: d.id }, '10.27.0.6');
    expect([bad.status, bad.body]).toEqual([400, envelope('VALIDATION.INVALID', 400)]);
  });
});
