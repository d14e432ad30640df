import type { Client } from 'pg';
import { bindProbe, testInfra, waitFor } from '@platform/testing';
import { startSystem, type OwnSystem, type Partner } from './support/system';

describe('outbox survives a crash between commit and publish', () => {
  let sys: OwnSystem;
  let partner: Partner;
  let db: Client;

  beforeAll(async () => {
    sys = await startSystem();
    partner = await sys.partner();
    db = await sys.db();
  });
  afterAll(async () => {
    await sys?.close();
  });

  it('when domains-svc is SIGKILLed after answering 200 and before its relay published, then after a restart the event is on RabbitMQ exactly once and exactly as expected', async () => {
    const { amqpUrl } = await testInfra();
    const probe = await bindProbe(amqpUrl, sys.exchange, ['domain.created']);
    try {
      // The relay is held back so the kill lands between the commit and the publish.
      await sys.platform.start('domains-svc', { OUTBOX_RELAY_ENABLED: 'false' });
      const host = `crash-${Date.now()}.example.com`;
      const res = await sys.call(partner, 'POST', '/portal/domains', {
        domain: host,
        company_name: 'Crash Co',
        account_email: 'owner@crash.example.com',
        country: 'DE',
        has_docs: false,
      });
      expect(res.status).toBe(200);
      const domainId = res.body.result.id;

      const pending = await db.query(
        `SELECT id, published_at FROM domains.outbox WHERE routing_key = 'domain.created' AND message->'payload'->'params'->>'domain_id' = $1`,
        [domainId],
      );
      expect(pending.rows).toHaveLength(1);
      expect(pending.rows[0].published_at).toBeNull();

      await sys.platform.processes.get('domains-svc')!.stop('SIGKILL');
      await sys.platform.start('domains-svc');

      const message = await probe.next((m) => m.payload.params.domain_id === domainId, 15_000);
      expect(message.id).toBe(pending.rows[0].id);
      expect(message.partner_id).toBe(partner.id);
      expect(message.payload).toEqual({
        event: 'domain.created',
        params: expect.objectContaining({
          domain_id: domainId,
          domain: host,
          action: 'CREATE_SILENT',
          source: 'API',
          status: 'NEW',
          country: 'DE',
          company_name: 'Crash Co',
          account_email: 'owner@crash.example.com',
          has_docs: false,
          has_dsar: true,
          has_scripts: true,
          has_accessibility: true,
          display_dpo: true,
          display_company: true,
          send_intro: false,
          product_id: expect.any(Number),
          price_list_id: expect.any(Number),
          subscription_id: expect.any(String),
        }),
        entity: {
          kind: 'domain',
          data: expect.objectContaining({
            id: domainId,
            hostname: host,
            status: 'NEW',
            has_docs: false,
            instance: expect.objectContaining({ id: expect.any(Number) }),
          }),
        },
      });
      await waitFor(
        async () =>
          (await db.query('SELECT published_at FROM domains.outbox WHERE id = $1', [message.id])).rows[0]?.published_at,
        { what: 'outbox row marked published' },
      );
      expect(probe.messages.filter((m) => m.id === message.id)).toHaveLength(1);
    } finally {
      await probe.close();
    }
  });
});
