import { startWebhookReceiver, type WebhookReceiver } from '@platform/launcher';
import { waitFor } from '@platform/testing';
import type { Client } from 'pg';
import { envelope, startSystem, type Partner, type System } from './support/system';

/**
 * The production setting: loopback is not allowed. The receiver listens on 127.0.0.1, so any
 * request reaching it would be an SSRF; every forbidden address below is only ever written in a
 * URL or answered by the injected resolver (WEBHOOK_RESOLVE), never contacted.
 */
describe('webhook SSRF guard (loopback not allowed)', () => {
  let sys: System;
  let partner: Partner;
  let receiver: WebhookReceiver;
  let db: Client;
  const port = () => new URL(receiver.url).port;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    sys = await startSystem({
      WEBHOOK_ALLOW_LOOPBACK: 'false',
      WEBHOOK_RESOLVE: 'rebind.partner.test:127.0.0.1,hooks.partner.test:127.0.0.1',
      WEBHOOK_POLL_MS: '100',
    });
    partner = await sys.partner();
    db = await sys.db();
  });
  afterAll(async () => {
    await sys?.close();
    await receiver?.close();
  });

  const REFUSED = [
    'http://127.0.0.1:PORT/h',
    'http://localhost:PORT/h',
    'http://app.localhost/h',
    'http://[::1]:PORT/h',
    'http://10.0.0.1/h',
    'http://172.16.5.4/h',
    'http://192.168.1.1/h',
    'http://169.254.169.254/latest/meta-data/',
    'http://100.64.0.1/h',
    'http://0.0.0.0/h',
    'http://0.1.2.3/h',
    'http://224.0.0.1/h',
    'http://255.255.255.255/h',
    'http://240.0.0.1/h',
    'http://192.0.2.10/h',
    'http://[fc00::1]/h',
    'http://[fd12:3456::1]/h',
    'http://[fe80::1]/h',
    'http://[ff02::1]/h',
    'http://[::]/h',
    'http://[::ffff:127.0.0.1]/h',
    'http://[::ffff:a00:1]/h',
    'http://[64:ff9b::a9fe:a9fe]/h',
    'http://[2002:a00:1::]/h',
    'http://[::127.0.0.1]/h',
    'http://2130706433/h',
    'http://0177.0.0.1/h',
    'http://0x7f000001/h',
    'http://0x7f.0.0.1/h',
    'http://017700000001/h',
    'http://127.1/h',
    'http://hooks.partner.test:PORT/h',
    'http://metadata.google.internal/computeMetadata/v1/',
    'http://printer.local/h',
    'ftp://hooks.example.com/h',
    'file:///etc/passwd',
  ];

  it('when an endpoint URL is in a refused range or form, then create and update answer 400 naming body.url, and nothing is stored or sent', async () => {
    const ep = await sys.arrange(partner, 'POST', '/portal/webhooks', { url: 'https://hooks.example.com/ok' });
    for (const template of REFUSED) {
      const url = template.replace('PORT', port());
      const created = await sys.call(partner, 'POST', '/portal/webhooks', { url });
      expect({ url, status: created.status }).toEqual({ url, status: 400 });
      expect(created.body).toEqual(envelope('VALIDATION.INVALID', 400));
      expect(created.body.error.data.issues).toEqual([expect.objectContaining({ path: 'body.url' })]);
      const updated = await sys.call(partner, 'PUT', `/portal/webhooks/${ep.body.result.id}`, { url });
      expect({
        url,
        status: updated.status,
        issues: updated.body.error.data.issues.map((i: { path: string }) => i.path),
      }).toEqual({ url, status: 400, issues: ['body.url'] });
    }
    const list = await sys.arrange(partner, 'GET', '/portal/webhooks?limit=100');
    expect(list.body.result.map((e: { url: string }) => e.url)).toEqual(['https://hooks.example.com/ok']);
    expect(receiver.received).toEqual([]);
  });

  it('when a registered host name later resolves to 127.0.0.1, then the attempt ends as blocked_address, its address is not shown, and no request reaches it', async () => {
    const ep = (await sys.arrange(partner, 'POST', '/portal/webhooks', { url: 'https://hooks.example.com/rebind' }))
      .body.result;
    // The name's DNS answer changed after registration (rebinding): registration would refuse it now, so it is arranged in the table.
    await db.query(`UPDATE webhooks.endpoints SET url = $2 WHERE id = $1`, [
      ep.id,
      `http://rebind.partner.test:${port()}/h`,
    ]);
    const sent = await sys.arrange(partner, 'POST', `/portal/webhooks/${ep.id}/test`);
    const delivery = await waitFor(async () => {
      const x = (await sys.arrange(partner, 'GET', `/portal/webhooks/${ep.id}/deliveries/${sent.body.result.id}`)).body
        .result;
      return x.attempts.length > 0 ? x : undefined;
    });
    expect(delivery.attempts[0]).toMatchObject({ error: 'blocked_address', status_code: null, response_body: null });
    expect(JSON.stringify(delivery)).not.toContain('127.0.0.1');
    expect(receiver.received).toEqual([]);
  });
});
