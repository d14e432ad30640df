import { randomUUID } from 'node:crypto';
import type { Client } from 'pg';
import { bindProbe, testInfra, waitFor, retryPastInProgress } from '@platform/testing';
import { envelope, startSystem, type OwnSystem, type Partner } from './support/system';

// What partners see when services stop or crash: one platform of this file's own (its processes are
// stopped, frozen and killed), started once for every suite here. A suite leaves every process
// running; afterEach brings back any that a failed test left down.
let sys: OwnSystem;

beforeAll(async () => {
  sys = await startSystem();
});
afterEach(async () => {
  for (const [name, proc] of sys?.platform.processes ?? []) {
    proc.child.kill('SIGCONT');
    if (proc.child.exitCode !== null || proc.child.signalCode !== null) await sys.platform.start(name);
  }
});
afterAll(() => sys?.close());

/** A domain created through the gateway. */
const createDomain = async (who: Partner, extra: Record<string, unknown> = {}) => {
  const host = `down-${randomUUID().slice(0, 8)}.example.com`;
  return (
    await sys.arrange(who, 'POST', '/portal/domains', {
      domain: host,
      company_name: `Down ${host}`,
      account_email: `o@${host}`,
      company_setup: true,
      ...extra,
    })
  ).body.result as { id: string };
};
const domainOf = async (who: Partner, id: string) =>
  (await sys.arrange(who, 'GET', `/portal/domains/${id}`)).body.result;
const productOf = async (who: Partner, domainId: string) =>
  (await domainOf(who, domainId)).subscription.price.product.id as number;

describe('a service going down, at the gateway', () => {
  let partner: Partner;

  beforeAll(async () => {
    partner = await sys.partner();
  });

  it('when a service is down, then 503 SERVICE.UNAVAILABLE, and it recovers once the service is back', async () => {
    await sys.platform.processes.get('domains-svc')!.stop('SIGKILL');
    const down = await sys.call(partner, 'GET', '/portal/domains');
    expect(down.body).toEqual(envelope('SERVICE.UNAVAILABLE', 503));
    expect(down.text).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|at .*\.js/);
    await sys.platform.start('domains-svc');
    expect((await sys.call(partner, 'GET', '/portal/domains')).status).toBe(200);
  });
});

describe('merchants and subscriptions while billing-svc and merchants-svc are down ', () => {
  let partner: Partner;
  let db: Client;

  beforeAll(async () => {
    partner = await sys.partner();
    db = await sys.db();
    // A first create while billing-svc is up: domains-svc then holds its copy of the catalogue.
    await createDomain(partner);
  });
  it('when billing-svc and merchants-svc are down, then domains with products and merchants are still created and read, and once both are back every subscription, merchant and link exists exactly once', async () => {
    const stopped = ['billing-svc', 'merchants-svc'] as const;
    await Promise.all(stopped.map((name) => sys.platform.processes.get(name)!.stop()));
    let restarted = false;
    try {
      const created: { id: string }[] = [];
      for (let i = 0; i < 3; i++)
        created.push(await createDomain(partner, { merchant_id: `down-${i}`, product: 'ENTERPRISE' }));
      created.push(await createDomain(partner, { merchant_id: 'down-0', product: 'PRO' }));
      expect(await productOf(partner, created[3].id)).toBe(2);
      for (const name of stopped) await sys.platform.start(name);
      restarted = true;
      const ids = created.map((d) => d.id);
      const linked = await waitFor(
        async () => {
          const { rows } = await db.query(
            `SELECT requested_as AS merchant_id, domain_id FROM merchants.domain_links WHERE domain_id = ANY($1) ORDER BY merchant_id`,
            [ids],
          );
          return rows.length === 4 ? rows : undefined;
        },
        { timeoutMs: 20_000, what: 'the merchant links' },
      );
      expect(linked.map((r) => r.merchant_id)).toEqual(['down-0', 'down-0', 'down-1', 'down-2']);
      const merchants = await db.query(
        `SELECT merchant_id, count(*)::int AS n FROM merchants.merchants WHERE partner_id = $1 AND merchant_id LIKE 'down-%' GROUP BY 1 ORDER BY 1`,
        [partner.id],
      );
      expect(merchants.rows).toEqual([
        { merchant_id: 'down-0', n: 1 },
        { merchant_id: 'down-1', n: 1 },
        { merchant_id: 'down-2', n: 1 },
      ]);
      // merchant.changed (over the bus) tells domains-svc which merchant each of its links is to.
      const resolved = await waitFor(
        async () => {
          const { rows } = await db.query(
            `SELECT l.merchant_id, l.merchant_ref = m.id AS same FROM domains.domain_merchants l JOIN merchants.merchants m ON m.partner_id = l.partner_id AND m.merchant_id = l.merchant_id
              WHERE l.domain_id = ANY($1) AND l.merchant_ref IS NOT NULL ORDER BY 1`,
            [ids],
          );
          return rows.length === 4 ? rows : undefined;
        },
        { timeoutMs: 20_000, what: "domains-svc's links resolved to their merchants" },
      );
      expect(resolved.map((r) => r.same)).toEqual([true, true, true, true]);
      const subscriptions = await waitFor(
        async () => {
          const { rows } = await db.query(
            `SELECT domain_id, product_id FROM billing.subscriptions WHERE domain_id = ANY($1)`,
            [ids],
          );
          return rows.length === 4 ? rows : undefined;
        },
        { timeoutMs: 20_000, what: 'the subscriptions' },
      );
      expect(subscriptions.map((r) => r.product_id).sort()).toEqual([2, 3, 3, 3]);
      const opened = await db.query(
        `SELECT message->>'aggregate_id' AS id, count(*)::int AS n FROM billing.outbox WHERE message->'payload'->'params'->'subscription'->>'domain_id' = ANY($1) GROUP BY 1`,
        [ids],
      );
      expect(opened.rows.map((r) => r.n)).toEqual([1, 1, 1, 1]);
    } finally {
      if (!restarted) for (const name of stopped) await sys.platform.start(name).catch(() => undefined);
    }
  });
});

describe('subscriptions while billing-svc is down', () => {
  let partner: Partner;
  let db: Client;

  beforeAll(async () => {
    partner = await sys.partner();
    db = await sys.db();
    // A first create while billing-svc is up: domains-svc then holds its copy of the catalogue.
    await createDomain(partner);
  });
  it('when billing-svc is down, then creates and reads still answer, product changes are 503, and once it is back every subscription is opened exactly once', async () => {
    await sys.platform.processes.get('billing-svc')!.stop();
    let restarted = false;
    try {
      const created = [];
      for (let i = 0; i < 5; i++) created.push(await createDomain(partner, { product: 'ENTERPRISE' }));
      for (const d of created) expect((await domainOf(partner, d.id)).subscription.price.product.id).toBe(3);
      const change = await sys.call(partner, 'POST', `/portal/domains/${created[0].id}/subscription/product`, {
        product: 'PRO',
      });
      expect(change.body).toEqual(envelope('SERVICE.UNAVAILABLE', 503));
      await sys.platform.start('billing-svc');
      restarted = true;
      const ids = await Promise.all(created.map(async (d) => (await domainOf(partner, d.id)).subscription.id));
      await waitFor(
        async () =>
          (await db.query(`SELECT count(*)::int AS n FROM billing.subscriptions WHERE id = ANY($1)`, [ids])).rows[0]
            .n === 5
            ? true
            : undefined,
        { timeoutMs: 20_000, what: 'the subscriptions' },
      );
      const events = await db.query(
        `SELECT message->>'aggregate_id' AS id, count(*)::int AS n FROM billing.outbox WHERE message->>'aggregate_id' = ANY($1) GROUP BY 1`,
        [ids],
      );
      expect(events.rows.map((r) => r.n)).toEqual([1, 1, 1, 1, 1]);
      expect(
        (await sys.call(partner, 'POST', `/portal/domains/${created[0].id}/subscription/product`, { product: 'PRO' }))
          .body,
      ).toEqual({ result: { changed: true } });
    } finally {
      if (!restarted) await sys.platform.start('billing-svc');
    }
  });
});

/** An advisory lock id the test holds to keep domains-svc's COMMIT waiting. */
const HOLD = 716_016;

describe('a keyed write survives a crash between its commit and its answer', () => {
  let partner: Partner;
  let db: Client;

  beforeAll(async () => {
    partner = await sys.partner();
    db = await sys.db();
  });

  /**
   * The kill must land after PostgreSQL committed and before domains-svc answered. A deferred
   * constraint trigger (the test's own, on this test database) makes the COMMIT of this one create
   * wait for an advisory lock the test holds; domains-svc is frozen while its COMMIT waits, the
   * lock is released so PostgreSQL finishes the commit on its own, and the frozen process is killed.
   */
  async function holdCommitOf(hostname: string) {
    await db.query(`
      CREATE FUNCTION domains.e2e_hold_commit() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.message->'payload'->'params'->>'domain' = '${hostname}' THEN PERFORM pg_advisory_xact_lock_shared(${HOLD}); END IF;
        RETURN NULL;
      END $$`);
    await db.query(
      `CREATE CONSTRAINT TRIGGER e2e_hold_commit AFTER INSERT ON domains.outbox DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION domains.e2e_hold_commit()`,
    );
    await db.query('SELECT pg_advisory_lock($1)', [HOLD]);
  }
  async function dropHold() {
    await db.query('SELECT pg_advisory_unlock_all()');
    await db.query('DROP TRIGGER IF EXISTS e2e_hold_commit ON domains.outbox');
    await db.query('DROP FUNCTION IF EXISTS domains.e2e_hold_commit()');
  }

  it('when domains-svc is SIGKILLed after committing a create with an Idempotency-Key and before answering, then the retry with that key answers the original 200 with the same domain, and one domain exists', async () => {
    const hostname = `keyed-crash-${Date.now()}.example.com`;
    const body = {
      domain: hostname,
      company_name: 'Keyed Crash Co',
      account_email: `owner@${hostname}`,
      country: 'DE',
      has_docs: false,
    };
    const headers = { 'Idempotency-Key': `create-${hostname}` };
    const domains = sys.platform.processes.get('domains-svc')!;
    await holdCommitOf(hostname);
    try {
      const first = sys.call(partner, 'POST', '/portal/domains', body, headers);
      await waitFor(
        async () =>
          (await db.query(`SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND objid = $1 AND NOT granted`, [HOLD]))
            .rows[0],
        { timeoutMs: 10_000, what: "the create's COMMIT waiting" },
      );
      domains.child.kill('SIGSTOP');
      await db.query('SELECT pg_advisory_unlock($1)', [HOLD]);
      const committed = await waitFor(
        async () => (await db.query('SELECT id FROM domains.domains WHERE hostname = $1', [hostname])).rows[0],
        {
          timeoutMs: 10_000,
          what: 'the create committed',
        },
      );
      await domains.stop('SIGKILL');
      const lost = await first;
      expect(lost.status).toBeGreaterThanOrEqual(500);

      await dropHold();
      await sys.platform.start('domains-svc');
      const retry = await retryPastInProgress(() => sys.call(partner, 'POST', '/portal/domains', body, headers));
      expect({ status: retry.status, error: retry.body.error?.code }).toEqual({ status: 200, error: undefined });
      expect(retry.headers.get('idempotent-replayed')).toBe('true');
      expect(retry.body.result).toEqual(expect.objectContaining({ id: committed.id, hostname, status: 'NEW' }));
      const again = await sys.call(partner, 'POST', '/portal/domains', body, headers);
      expect(again.text).toBe(retry.text);
      const rows = await db.query('SELECT id FROM domains.domains WHERE hostname = $1', [hostname]);
      expect(rows.rows).toEqual([{ id: committed.id }]);
    } finally {
      domains.child.kill('SIGCONT');
      await dropHold();
    }
  });

  it('when a keyed domain create naming a merchant fails at its COMMIT, then merchants-svc was told nothing (no merchant, no link), and the retry that commits shows the same domain in both services', async () => {
    const hostname = `keyed-refused-${Date.now()}.example.com`;
    const merchantId = `m-${hostname.slice(13, 26)}`;
    const body = {
      domain: hostname,
      company_name: 'Refused Co',
      account_email: `owner@${hostname}`,
      merchant_id: merchantId,
    };
    const headers = { 'Idempotency-Key': `refused-${hostname}` };
    await db.query(`
      CREATE FUNCTION domains.e2e_refuse_commit() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.message->'payload'->'params'->>'domain' = '${hostname}' THEN RAISE EXCEPTION 'refused at commit'; END IF;
        RETURN NULL;
      END $$`);
    await db.query(
      `CREATE CONSTRAINT TRIGGER e2e_refuse_commit AFTER INSERT ON domains.outbox DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION domains.e2e_refuse_commit()`,
    );
    try {
      const refused = await sys.call(partner, 'POST', '/portal/domains', body, headers);
      expect(refused.status).toBeGreaterThanOrEqual(500);
    } finally {
      await db.query('DROP TRIGGER IF EXISTS e2e_refuse_commit ON domains.outbox');
      await db.query('DROP FUNCTION IF EXISTS domains.e2e_refuse_commit()');
    }
    const merchantsNamed = async () =>
      (await sys.call(partner, 'GET', `/portal/merchants?merchant_id=${merchantId}`)).body.result;
    expect((await db.query('SELECT id FROM domains.domains WHERE hostname = $1', [hostname])).rows).toEqual([]);
    expect(await merchantsNamed()).toEqual([]);

    // A 5xx is not kept: the retry runs the create again, and this time it commits.
    const created = await sys.call(partner, 'POST', '/portal/domains', body, headers);
    expect(created.status).toBe(200);
    const [merchant] = await merchantsNamed();
    expect(merchant.domain).toMatchObject({ id: created.body.result.id, hostname, status: 'NEW' });
  });
});

describe('outbox survives a crash between commit and publish', () => {
  let partner: Partner;
  let db: Client;

  beforeAll(async () => {
    partner = await sys.partner();
    db = await sys.db();
  });

  it('when domains-svc is SIGKILLed after answering 200 and before its relay published, then after a restart the event is on RabbitMQ exactly once and exactly as expected', async () => {
    const { amqpUrl } = await testInfra();
    const probe = await bindProbe(amqpUrl, sys.exchange, ['domain.created']);
    let relayHeld = false;
    try {
      // The relay is held back so the kill lands between the commit and the publish.
      await sys.platform.start('domains-svc', { OUTBOX_RELAY_ENABLED: 'false' });
      relayHeld = true;
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
      relayHeld = false;

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
      // The suites after this one need domains-svc's relay.
      if (relayHeld) await sys.platform.start('domains-svc');
    }
  });
});
