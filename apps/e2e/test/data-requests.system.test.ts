// Data subject requests end to end: a visitor sends one from the widget's form on the customer's
// site (real Chromium), opens the link from the mail catcher on the gateway's confirmation page, the
// partner reads it (and data_request.* webhooks), and the owner answers it in the console's inbox,
// which e-mails the requester the reply.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { startWebhookReceiver, type WebhookReceiver } from '@platform/launcher';
import { launchChromium, newVisitor, saveScreenshot, waitFor, widgetBooted } from '@platform/testing';
import { ownerSession } from './support/owner-session';
import { checkScreen, newPortalPage, seriousViolations, settled } from './support/portal-browser';
import { envelope, sharedSystem, type Partner, type System } from './support/system';

const SHOTS = '/tmp/shots';
const SUFFIX = randomUUID().slice(0, 8);
const SITE_ROOT = `dsar-${SUFFIX}.example.com`;
const CONFIRM_LINK = /http:\/\/[^\s"<>]+\/widget\/v1\/requests\/confirm#token=([\w-]+)/;

describe('data subject requests: the form, the e-mailed confirmation, the partner API and the console inbox (Chromium)', () => {
  let sys: System;
  let partner: Partner;
  let stranger: Partner;
  let receiver: WebhookReceiver;
  let browser: Browser;
  let site: http.Server;
  const snippets = new Map<string, string>();
  const pageUrl = (host: string) => `http://${host}:${(site.address() as AddressInfo).port}/`;
  const createDomain = async (label: string) => {
    const hostname = `${label}.${SITE_ROOT}`;
    const res = await sys.arrange(partner, 'POST', '/portal/domains', {
      domain: hostname,
      company_name: `Shop ${label}`,
      account_email: `owner@${hostname}`,
      company_setup: true,
      has_dsar: true,
    });
    const d = res.body.result as { id: string; hostname: string; instance_property_id: string; privacy_widget: string };
    snippets.set(hostname, d.privacy_widget);
    return d;
  };
  const hook = (event: string, requestId: string) =>
    waitFor(
      () =>
        receiver.received.find(
          (r) => r.path === '/dsar' && r.body.includes(requestId) && r.body.includes(`"${event}"`),
        ),
      { timeoutMs: 20_000, what: `${event} webhook` },
    );
  const confirmLinkFor = async (email: string) => {
    const mail = await sys.smtp.waitForMessage((m) => m.to.includes(email) && CONFIRM_LINK.test(m.decoded), 20_000);
    return CONFIRM_LINK.exec(mail.decoded)![0];
  };
  const listOf = (p: Partner, domainId: string, query = '') =>
    sys.call(p, 'GET', `/portal/instance/company/requests?domain_id=${domainId}${query}`);

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    sys = await sharedSystem();
    partner = await sys.partner(`DSAR Partner ${SUFFIX}`);
    stranger = await sys.partner();
    await sys.arrange(partner, 'POST', '/portal/webhooks', {
      url: `${receiver.url}/dsar`,
      events: ['data_request.verified', 'data_request.overdue', 'data_request.closed'],
    });
    site = http.createServer((req, res) => {
      const snippet = snippets.get(String(req.headers.host).split(':')[0]);
      res.writeHead(snippet ? 200 : 404, { 'content-type': 'text/html' });
      res.end(
        snippet
          ? `<!doctype html><html lang="en"><head>${snippet}<meta charset="utf-8"><title>Shop</title></head><body><main><h1>Shop</h1></main></body></html>`
          : 'no such site',
      );
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    browser = await launchChromium([SITE_ROOT]);
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => site?.close(resolve));
    await receiver?.close();
    await sys?.close();
  });

  /** The visitor sends a request from the widget's form and opens the e-mailed link: the confirmation page. */
  async function sendAndConfirm(d: { hostname: string }, email: string): Promise<{ confirmed: Page; due: string }> {
    const visitor = await (await newVisitor(browser)).newPage();
    await visitor.goto(pageUrl(d.hostname));
    await widgetBooted(visitor);
    await visitor.evaluate("PrivacyWidget.open('dsar')");
    await visitor.getByLabel('Request', { exact: true }).selectOption('portability');
    await visitor.getByLabel('E-mail address (required)').fill(email);
    await visitor.getByLabel('Details (optional)').fill('Please send me my orders as a file.');
    await visitor.getByRole('button', { name: 'Send request' }).click();
    await visitor.getByText(/Check your e-mail: we sent .+ a link to confirm your request\. Reference: DSR_/).waitFor();
    await saveScreenshot(visitor, SHOTS, 'dsar-form-sent');

    const link = await confirmLinkFor(email);
    const confirmed = await (await newVisitor(browser)).newPage();
    const page = (await confirmed.goto(link))!;
    // The page's own rules: only its script and calls, no frame, no Referer.
    expect(page.headers()['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.headers()['referrer-policy']).toBe('no-referrer');
    await confirmed.getByRole('heading', { name: 'Your request is confirmed' }).waitFor();
    expect(new URL(confirmed.url()).hash).toBe(''); // the token left the address bar
    const due = (await confirmed.locator('[data-request-due]').getAttribute('data-request-due'))!;
    expect(await seriousViolations(confirmed)).toEqual([]);
    await saveScreenshot(confirmed, SHOTS, 'dsar-confirmed');
    return { confirmed, due };
  }

  it('when a visitor sends a request and opens the e-mailed link, then it is VERIFIED and due in 30 days, the partner reads it and gets data_request.verified; the owner answers it in the console and the requester gets the reply with data_request.closed', async () => {
    const d = await createDomain('main');
    const email = `vera-${SUFFIX}@example.net`;
    const before = Date.now();
    const { due } = await sendAndConfirm(d, email);
    // Loopback has no place in GeoIP: the stricter GDPR month applies.
    const expected = [0, 1].map((day) => new Date(before + (30 + day) * 86_400_000).toISOString().slice(0, 10));
    expect(expected).toContain(due);

    const list = await listOf(partner, d.id);
    expect(list.status).toBe(200);
    const [request] = list.body.result;
    expect(request).toMatchObject({
      type: 'portability',
      status: 'VERIFIED',
      email,
      hostname: d.hostname,
      overdue: false,
    });
    expect(request.due_at.slice(0, 10)).toBe(due);
    const verified = JSON.parse((await hook('data_request.verified', request.request_id)).body);
    expect(verified).toMatchObject({
      event: 'data_request.verified',
      params: { request_id: request.request_id, domain_id: d.id, type: 'portability', status: 'VERIFIED' },
      entity: { kind: 'data_request', data: { request_id: request.request_id, email } },
    });
    // Another partner names the domain: 404, never the requests.
    expect((await listOf(stranger, d.id)).body).toEqual(envelope('RESOURCE.NOT_FOUND', 404));

    // The owner's console: the inbox lists it with its due date; the owner completes it with a note.
    const provisioned = await sys.arrange(
      partner,
      'POST',
      `/portal/instance/access/users/provision?domain_id=${d.id}`,
      {
        email: `olga@${d.hostname}`,
        role: 'ADMIN',
      },
    );
    const inbox = await newPortalPage(browser);
    await inbox.goto(provisioned.body.result.sign_in_url as string);
    await inbox.getByRole('heading', { level: 1, name: 'Install the widget' }).waitFor();
    await inbox.getByRole('link', { name: 'Requests' }).click();
    await inbox.getByRole('heading', { level: 1, name: 'Requests' }).waitFor();
    const row = inbox.locator(`tr[data-request-id="${request.request_id}"]`);
    await row.waitFor();
    expect(await row.locator('time').textContent()).toBe(due);
    await checkScreen(inbox, 'dsar-inbox');
    await saveScreenshot(inbox, SHOTS, 'dsar-inbox');
    await row.getByRole('button', { name: /Details of request/ }).click();
    const dialog = inbox.getByRole('dialog', { name: 'Data subject request' });
    await dialog.getByLabel(/^Note/).fill('Your orders are attached as a CSV file.');
    await saveScreenshot(inbox, SHOTS, 'dsar-detail');
    expect(await seriousViolations(inbox)).toEqual([]);
    await dialog.getByRole('button', { name: 'Complete' }).click();
    await dialog.getByText('Completed', { exact: true }).waitFor();
    await settled(inbox);

    const reply = await sys.smtp.waitForMessage(
      (m) => m.to.includes(email) && /has been completed/.test(m.subject),
      20_000,
    );
    expect(reply.decoded).toContain('Your orders are attached as a CSV file.');
    const closed = JSON.parse((await hook('data_request.closed', request.request_id)).body);
    expect(closed.params).toMatchObject({ request_id: request.request_id, status: 'COMPLETED' });
    expect((await listOf(partner, d.id, '&status=COMPLETED')).body.result).toHaveLength(1);
    expect((await listOf(partner, d.id, '&status=VERIFIED')).body.result).toHaveLength(0);
  });

  it('when a VIEWER or a write without the CSRF token works a request, then 403 and it stays as it was; an ADMIN moves it (in the audit log); another domain of the account answers 404', async () => {
    const d = await createDomain('roles');
    const email = `roles-${SUFFIX}@example.net`;
    // Once consent-svc has learned the property (domain.created reaches it over the bus).
    const answer = await waitFor(
      async () => {
        const res = await sys.call(
          undefined,
          'POST',
          `/widget/v1/properties/${d.instance_property_id}/requests`,
          { type: 'access', email },
          { origin: `https://${d.hostname}` },
        );
        return res.status === 404 ? undefined : res;
      },
      { what: 'the property in consent-svc' },
    );
    expect(answer.status).toBe(202);
    const link = await confirmLinkFor(email);
    const token = CONFIRM_LINK.exec(link)![1];
    expect((await sys.call(undefined, 'POST', '/widget/v1/requests/confirmations', { token })).status).toBe(200);
    const id = answer.body.result.request_id as string;
    const path = `/portal/owner/domains/${d.id}/requests/${id}`;
    const viewer = await ownerSession(sys, partner, d.id, { email: `vic@${d.hostname}`, role: 'VIEWER' });
    expect((await viewer.call('GET', path)).body.result).toMatchObject({ request_id: id, status: 'VERIFIED' });
    expect((await viewer.call('PATCH', path, { status: 'IN_PROGRESS' })).body.error.code).toBe('AUTH.FORBIDDEN');
    const admin = await ownerSession(sys, partner, d.id, { email: `ada@${d.hostname}`, role: 'ADMIN' });
    expect((await admin.call('PATCH', path, { status: 'IN_PROGRESS' }, { csrf: false })).body.error.code).toBe(
      'AUTH.CSRF',
    );
    const moved = await admin.call('PATCH', path, { status: 'IN_PROGRESS', note: 'Looking it up' });
    expect(moved.body.result).toMatchObject({ status: 'IN_PROGRESS' });
    expect(moved.body.result.history.at(-1)).toMatchObject({
      kind: 'status',
      note: 'Looking it up',
      actor: expect.stringMatching(/^owner:/),
    });
    // The partner's audit log names the owner and the fields they sent, never the note.
    const audit = await (
      await sys.db()
    ).query(
      `SELECT kind, actor_id, details->'fields' AS fields, details::text AS text FROM gateway.audit_events
        WHERE partner_id = $1 AND actor_id = $2`,
      [partner.id, admin.userId],
    );
    expect(audit.rows).toEqual([
      { kind: 'data_request.updated', actor_id: admin.userId, fields: ['note', 'status'], text: expect.any(String) },
    ]);
    expect(audit.rows[0].text).not.toContain('Looking it up');
    const other = await createDomain('other');
    expect((await admin.call('GET', `/portal/owner/domains/${other.id}/requests/${id}`)).status).toBe(404);
  });
});
