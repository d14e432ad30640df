import { randomUUID } from 'node:crypto';
import { EMAIL_TEMPLATE_KINDS, EMAIL_TEMPLATE_LIMITS, EMAIL_TEMPLATE_VARIABLES } from '@platform/contracts';
import type { ReceivedMail } from '@platform/testing';
import { DEFAULT_TEMPLATES } from '../src/domains/mail/default-templates';
import { emitDueReminders } from '../src/reminders/activation-reminders.service';
import type { ScanEngine } from '../src/scanner/scan-worker';
import {
  createBody,
  envelope,
  startDomainsSvc,
  uniqueHost,
  WIDGET_BASE_URL,
  type Harness,
  type TestUser,
} from './support/harness';

/** Every site this suite scans has one analytics cookie on two pages. */
const engine: ScanEngine = {
  scan: async ({ hostname }) => ({
    mode: 'http',
    failed: false,
    pages: [`https://${hostname}/`, `https://${hostname}/about`],
    findings: {
      scripts: [],
      cookies: [
        {
          name: '_ga',
          domain: `.${hostname}`,
          expires_at: null,
          first_party: true,
          category: 'analytics',
          vendor: 'Google',
        },
      ],
      iframes: [],
      counts: { necessary: 0, functional: 0, analytics: 1, marketing: 0, unclassified: 0 },
    },
    errors: [],
  }),
  close: async () => undefined,
};
const DAY = 86_400_000;

/** The HTML part of a received mail, as sent (quoted-printable or base64 undone). */
function htmlPartOf(mail: ReceivedMail): string {
  const at = mail.raw.search(/^Content-Type: text\/html/im);
  if (at < 0) throw new Error('the mail has no HTML part');
  const part = mail.raw.slice(at);
  const [head, ...rest] = part.split(/\r?\n\r?\n/);
  const body = rest.join('\n\n').split(/\r?\n--/)[0];
  if (/Content-Transfer-Encoding: base64/i.test(head)) return Buffer.from(body, 'base64').toString('utf8');
  return body
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

const issuesOf = (body: { error: { data?: { issues?: { path: string; message: string }[] } } }) =>
  body.error.data?.issues ?? [];

describe('e-mail templates', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startDomainsSvc({}, { scanEngine: () => engine });
  });
  afterAll(() => h?.close());

  const put = (who: TestUser, kind: string, template: unknown) =>
    h.call(who, 'PUT', `/portal/email-templates/${kind}`, template);

  it('when a partner has customized nothing, then every kind answers the default with its variables', async () => {
    const user = h.portalUser();
    const res = await h.call(user, 'GET', '/portal/email-templates');
    expect(res.status).toBe(200);
    expect(res.body.result.map((t: { kind: string }) => t.kind)).toEqual([...EMAIL_TEMPLATE_KINDS]);
    for (const t of res.body.result) {
      expect(t).toEqual({
        kind: t.kind,
        subject: DEFAULT_TEMPLATES[t.kind as keyof typeof DEFAULT_TEMPLATES].subject,
        body: DEFAULT_TEMPLATES[t.kind as keyof typeof DEFAULT_TEMPLATES].body,
        customized: false,
        variables: EMAIL_TEMPLATE_VARIABLES[t.kind as keyof typeof EMAIL_TEMPLATE_VARIABLES],
        updated_at: null,
      });
    }
    const names = res.body.result
      .find((t: { kind: string }) => t.kind === 'SCAN_REPORT')
      .variables.map((v: { name: string }) => v.name);
    expect(names).toEqual(
      expect.arrayContaining(['owner_first_name', 'domain_name', 'widget_snippet', 'scan_summary']),
    );
  });

  it('when a partner saves a template, then they read it back as customized and another partner still reads the default (and saves independently)', async () => {
    const a = h.portalUser();
    const b = h.portalUser();
    const saved = await put(a, 'INVITATION', {
      subject: 'Hi {{ owner_first_name }}',
      body: '<p>{{ domain_name }}</p>',
    });
    expect(saved.status).toBe(200);
    expect(saved.body.result).toMatchObject({
      kind: 'INVITATION',
      subject: 'Hi {{ owner_first_name }}',
      body: '<p>{{ domain_name }}</p>',
      customized: true,
    });
    expect(Date.parse(saved.body.result.updated_at)).not.toBeNaN();
    expect((await h.call(a, 'GET', '/portal/email-templates/INVITATION')).body.result).toEqual(saved.body.result);

    const other = await h.call(b, 'GET', '/portal/email-templates/INVITATION');
    expect(other.body.result).toMatchObject({ customized: false, subject: DEFAULT_TEMPLATES.INVITATION.subject });
    expect((await put(b, 'INVITATION', { subject: 'B', body: 'b' })).status).toBe(200);
    expect((await h.call(a, 'GET', '/portal/email-templates/INVITATION')).body.result.subject).toBe(
      'Hi {{ owner_first_name }}',
    );
    const listed = (await h.call(a, 'GET', '/portal/email-templates')).body.result;
    expect(listed.filter((t: { customized: boolean }) => t.customized).map((t: { kind: string }) => t.kind)).toEqual([
      'INVITATION',
    ]);
  });

  it('when a template uses an unknown variable, is too large, or has a CR/LF in its subject, then 400 names the field and nothing is saved', async () => {
    const user = h.portalUser();
    const unknown = await put(user, 'INVITATION', { subject: 'Hi', body: '<p>{{ domain_name }} {{ secret_key }}</p>' });
    expect(unknown.body).toEqual(envelope('VALIDATION.INVALID', 400));
    expect(issuesOf(unknown.body)).toEqual([
      { path: 'body.body', message: expect.stringContaining('unknown variable "secret_key"') },
    ]);
    // A variable of another kind is unknown too.
    const otherKind = await put(user, 'INVITATION', { subject: '{{ scan_summary }}', body: 'x' });
    expect(issuesOf(otherKind.body)).toEqual([
      { path: 'body.subject', message: expect.stringContaining('unknown variable "scan_summary"') },
    ]);
    const large = await put(user, 'INTRO', { subject: 'Hi', body: 'x'.repeat(EMAIL_TEMPLATE_LIMITS.bodyChars + 1) });
    expect(large.body).toEqual(envelope('VALIDATION.INVALID', 400));
    expect(issuesOf(large.body).map((i) => i.path)).toEqual(['body.body']);
    const longSubject = await put(user, 'INTRO', { subject: 's'.repeat(201), body: 'x' });
    expect(issuesOf(longSubject.body).map((i) => i.path)).toEqual(['body.subject']);
    for (const subject of ['Hi\r\nBcc: victim@example.com', 'Hi\nthere']) {
      const crlf = await put(user, 'INTRO', { subject, body: 'x' });
      expect(crlf.body).toEqual(envelope('VALIDATION.INVALID', 400));
      expect(issuesOf(crlf.body).map((i) => i.path)).toEqual(['body.subject']);
    }
    expect(
      (await h.call(user, 'GET', '/portal/email-templates')).body.result.every(
        (t: { customized: boolean }) => !t.customized,
      ),
    ).toBe(true);
  });

  it('when a template tries to read a file, switch escaping off, use an unknown filter or is not valid Liquid, then 400', async () => {
    const user = h.portalUser();
    for (const body of [
      "{% include '/etc/passwd' %}",
      "{% render 'other' %}",
      "{% layout 'base' %}x",
      '{{ company_name | raw }}',
      '{{ company_name | no_such_filter }}',
      '{% if domain_name %}',
    ]) {
      const res = await put(user, 'INTRO', { subject: 'Hi', body });
      expect(res.body).toEqual(envelope('VALIDATION.INVALID', 400));
      expect(issuesOf(res.body).map((i) => i.path)).toEqual(['body.body']);
    }
    expect((await h.call(user, 'GET', '/portal/email-templates/INTRO')).body.result.customized).toBe(false);
  });

  it('when an unknown kind is asked, then 400 VALIDATION.INVALID', async () => {
    const user = h.portalUser();
    expect((await h.call(user, 'GET', '/portal/email-templates/NEWSLETTER')).body).toEqual(
      envelope('VALIDATION.INVALID', 400),
    );
  });

  it('when a template is previewed, then it is rendered with the example values, escaped in the HTML, as text in the plain part, and not saved', async () => {
    const user = h.portalUser();
    const res = await h.call(user, 'POST', '/portal/email-templates/ACTIVATION_REMINDER/preview', {
      subject: 'Day {{ reminder_day }} for {{ domain_name }}',
      body: '<p>Paste <code>{{ widget_snippet }}</code></p><ul><li>{{ company_name }}</li></ul><a href="{{ approval_url }}">activate</a>',
    });
    expect(res.status).toBe(200);
    const examples = Object.fromEntries(EMAIL_TEMPLATE_VARIABLES.ACTIVATION_REMINDER.map((v) => [v.name, v.example]));
    expect(res.body.result.subject).toBe(`Day ${examples.reminder_day} for ${examples.domain_name}`);
    expect(res.body.result.html).toContain('&lt;script src=&#34;');
    expect(res.body.result.html).not.toContain('<script');
    expect(res.body.result.text).toContain(examples.widget_snippet);
    expect(res.body.result.text).toContain(`- ${examples.company_name}`);
    expect(res.body.result.text).toContain(`activate (${examples.approval_url})`);
    expect((await h.call(user, 'GET', '/portal/email-templates/ACTIVATION_REMINDER')).body.result.customized).toBe(
      false,
    );
    const bad = await h.call(user, 'POST', '/portal/email-templates/INTRO/preview', {
      subject: 'x',
      body: '{{ nope }}',
    });
    expect(issuesOf(bad.body)).toEqual([{ path: 'body.body', message: expect.stringContaining('"nope"') }]);
  });

  it('when a user asks for a test send, then 202 and the template in use arrives at their own address', async () => {
    const user = h.portalUser();
    await put(user, 'SCAN_REPORT', {
      subject: 'Your report: {{ domain_name }}',
      body: '<pre>{{ scan_summary }}</pre>',
    });
    const res = await h.call(user, 'POST', '/portal/email-templates/SCAN_REPORT/test');
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ result: { to: user.email } });
    const mail = await h.smtp.waitForMessage((m) => m.to.includes(user.email));
    expect(mail.to).toEqual([user.email]);
    expect(mail.subject).toBe('[Test] Your report: shop.example.com');
    expect(mail.decoded).toContain('ANALYTICS: 3');
  });

  it('when an invitation is sent after the partner customized it, then the owner gets the custom subject and body, with HTML in values escaped', async () => {
    const user = h.portalUser();
    const key = h.apiKeyOf(user.id);
    await put(user, 'INVITATION', {
      subject: '{{ company_name }}: please switch on {{ domain_name }}',
      body: '<p>Dear {{ owner_first_name }} {{ owner_last_name }} of {{ company_name }},</p><pre>{{ widget_snippet }}</pre><p><a href="{{ approval_url }}">Activate</a></p>',
    });
    const host = uniqueHost('tpl');
    const created = await h.call(
      key,
      'POST',
      '/portal/domains',
      createBody(host, {
        company_name: '<img src=x onerror=alert(1)> Ltd',
        account_first_name: '<b>Bob</b>',
        account_last_name: 'Tables',
      }),
    );
    expect(created.status).toBe(200);
    expect(
      (await h.call(key, 'POST', `/portal/domains/${created.body.result.id}/invite`, { send_intro: false })).status,
    ).toBe(200);
    const mail = await h.smtp.waitForMessage((m) => m.to.includes(`owner@${host}`));
    expect(mail.subject).toBe(`<img src=x onerror=alert(1)> Ltd: please switch on ${host}`);
    const html = htmlPartOf(mail);
    expect(html).toContain('Dear &lt;b&gt;Bob&lt;/b&gt; Tables of &lt;img src=x onerror=alert(1)&gt; Ltd,');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<b>Bob');
    // ACTIVATION_APPROVAL_URL unset: the owner console's sign-in for the domain, under PORTAL_URL.
    expect(html).toMatch(
      new RegExp(`<a href="http://[^"]+/app/owner/sign-in\\?domain=${created.body.result.id}">Activate</a>`),
    );
    // The plain-text part shows the snippet as the owner pastes it.
    expect(mail.decoded).toContain(created.body.result.privacy_widget);
  });

  it('when the partner customized the intro, then a create with send_intro sends it; after a reset the default is sent again', async () => {
    const user = h.portalUser();
    const key = h.apiKeyOf(user.id);
    await put(user, 'INTRO', { subject: 'Custom intro for {{ domain_name }}', body: '<p>Hello from us</p>' });
    const custom = uniqueHost('intro');
    await h.call(key, 'POST', '/portal/domains', createBody(custom, { send_intro: true }));
    const first = await h.smtp.waitForMessage((m) => m.to.includes(`owner@${custom}`));
    expect(first.subject).toBe(`Custom intro for ${custom}`);
    expect(first.decoded).toContain('Hello from us');

    const reset = await h.call(user, 'DELETE', '/portal/email-templates/INTRO');
    expect(reset.status).toBe(200);
    expect(reset.body.result).toMatchObject({
      customized: false,
      updated_at: null,
      subject: DEFAULT_TEMPLATES.INTRO.subject,
    });
    const plain = uniqueHost('intro');
    await h.call(key, 'POST', '/portal/domains', createBody(plain, { send_intro: true }));
    const second = await h.smtp.waitForMessage((m) => m.to.includes(`owner@${plain}`));
    expect(second.subject).toBe(`Welcome to your privacy widget for ${plain}`);
  });

  it("when the gateway sends the partner's name, then the default invitation is signed with it, escaped", async () => {
    const key = h.apiKeyOf(`partner_${randomUUID()}`, { partnerName: 'Hosting & <Co>' });
    const host = uniqueHost('signed');
    const created = await h.call(key, 'POST', '/portal/domains', createBody(host));
    await h.call(key, 'POST', `/portal/domains/${created.body.result.id}/invite`, { send_intro: false });
    const mail = await h.smtp.waitForMessage((m) => m.to.includes(`owner@${host}`));
    expect(mail.subject).toBe(`Activate the privacy widget on ${host}`);
    expect(htmlPartOf(mail)).toContain('<p>Hosting &amp; &lt;Co&gt;</p>');
  });

  it('when a token names no signed-in user (an API key), then every template route answers 403, even holding the template permissions', async () => {
    const user = h.portalUser();
    const keyWithPermissions = h.apiKeyOf(user.id, { permissions: ['templates:read', 'templates:write'] });
    const plainKey = h.apiKeyOf(user.id);
    for (const who of [keyWithPermissions, plainKey]) {
      for (const [method, path, body] of [
        ['GET', '/portal/email-templates', undefined],
        ['GET', '/portal/email-templates/INTRO', undefined],
        ['PUT', '/portal/email-templates/INTRO', { subject: 'x', body: 'y' }],
        ['DELETE', '/portal/email-templates/INTRO', undefined],
        ['POST', '/portal/email-templates/INTRO/preview', { subject: 'x', body: 'y' }],
        ['POST', '/portal/email-templates/INTRO/test', undefined],
      ] as const) {
        expect((await h.call(who, method, path, body)).body).toEqual(envelope('AUTH.FORBIDDEN', 403));
      }
    }
    expect((await h.call(user, 'GET', '/portal/email-templates/INTRO')).body.result.customized).toBe(false);
  });

  it('when a user may read templates but not write them, then reading works and saving answers 403', async () => {
    const reader = h.portalUser({ permissions: ['templates:read'] });
    expect((await h.call(reader, 'GET', '/portal/email-templates')).status).toBe(200);
    expect((await put(reader, 'INTRO', { subject: 'x', body: 'y' })).body).toEqual(envelope('AUTH.FORBIDDEN', 403));
    expect((await h.call(reader, 'POST', '/portal/email-templates/INTRO/test')).body).toEqual(
      envelope('AUTH.FORBIDDEN', 403),
    );
  });

  it("when the partner customized the scan report, then a SCAN's report e-mail uses it with the scan's values", async () => {
    const user = h.portalUser();
    await put(user, 'SCAN_REPORT', {
      subject: '{{ scan_pages }} pages of {{ domain_name }} scanned',
      body: '<p>Found:</p><pre>{{ scan_summary }}</pre><p>{{ scan_third_parties }}</p><pre>{{ scan_cookies }}</pre>',
    });
    const host = uniqueHost('scan');
    await h.call(h.apiKeyOf(user.id), 'POST', '/portal/domains', createBody(host, { action: 'SCAN' }));
    const mail = await h.smtp.waitForMessage((m) => m.to.includes(`owner@${host}`));
    expect(mail.subject).toBe(`2 pages of ${host} scanned`);
    expect(mail.decoded).toContain('analytics: 1');
    expect(mail.decoded).toContain('_ga (analytics, Google)');
  });

  // Last: it emits the day-2 reminders of every domain this suite created.
  it("when the partner customized the activation reminder, then the day-2 reminder uses it, with the partner's name the gateway last sent", async () => {
    const user = h.portalUser({ partnerName: 'Acme <Hosting>' });
    await put(user, 'ACTIVATION_REMINDER', {
      subject: 'Day {{ reminder_day }}: {{ domain_name }} waits for {{ partner_name }}',
      body: '<p><a href="{{ approval_url }}">Activate {{ domain_name }}</a></p><p>{{ partner_name }}</p>',
    });
    const host = uniqueHost('remind');
    await h.call(h.apiKeyOf(user.id), 'POST', '/portal/domains', createBody(host));
    await emitDueReminders(h.deps.db, new Date(Date.now() + 2 * DAY + 60_000), {
      dayMs: DAY,
      widgetBaseUrl: WIDGET_BASE_URL,
      approvalUrlTemplate: 'https://partner.test/approve?site={domain_name}',
    });
    const mail = await h.smtp.waitForMessage((m) => m.to.includes(`owner@${host}`));
    expect(mail.subject).toBe(`Day 2: ${host} waits for Acme <Hosting>`);
    expect(htmlPartOf(mail)).toContain(
      `<a href="https://partner.test/approve?site=${host}">Activate ${host}</a></p><p>Acme &lt;Hosting&gt;</p>`,
    );
  });
});
