import { randomBytes } from 'node:crypto';
import { startWebhookReceiver, type WebhookReceiver } from '@platform/launcher';
import { act, uniqueName, waitFor, type ApiResponse } from '@platform/testing';
import { startClusterPlatform, type ClusterPlatform } from './cluster-platform';

const CREATES = 500;
const CONCURRENCY = 8;
/** The node dies after this many creates have answered: the rest are made while the cluster heals. */
const KILL_AFTER = 150;

const started = Date.now();
const log = (line: string) => process.stdout.write(`[${((Date.now() - started) / 1000).toFixed(1)} s] ${line}\n`);

interface Created {
  domainIds: string[];
  failures: string[];
}

describe('broker node loss: a RabbitMQ node dies during domain creates and nothing is lost', () => {
  let sys: ClusterPlatform;
  let receiver: WebhookReceiver;
  let key: string;
  let partnerId: string;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    sys = await startClusterPlatform(log);
    partnerId = (await sys.platform.admin<{ id: string }>('partner', 'create', '--name', uniqueName('cluster'))).id;
    key = (await sys.platform.admin<{ key: string }>('key', 'create', '--partner', partnerId)).key;
    const endpoint = await call('POST', '/portal/webhooks', {
      url: `${receiver.url}/hooks`,
      events: ['domain.created'],
    });
    expect(endpoint.status).toBe(201);
  });
  afterAll(async () => {
    await sys?.close();
    await receiver?.close();
  });

  const call = (method: string, path: string, body?: unknown) =>
    act(sys.platform.urls.gateway, method, path, { token: key, body });

  let busyAnswers = 0;
  /**
   * One create, as a partner makes it: "busy; retry later" (503: PostgreSQL's connections are
   * shared with whatever else runs here) and "the first request with this key is still being
   * processed" (409) are retried with the same Idempotency-Key, so a domain is never made twice.
   */
  async function createDomain(host: string, i: number): Promise<ApiResponse> {
    const body = { domain: host, company_name: `Company ${i}`, account_email: `owner@${host}` };
    const headers = { 'Idempotency-Key': `create-${host}` };
    let last: ApiResponse | undefined;
    const retryLater = (res: ApiResponse) =>
      res.status === 503 || (res.status === 409 && res.body?.error?.code === 'IDEMPOTENCY.IN_PROGRESS');
    try {
      return await waitFor(
        async () => {
          last = await act(sys.platform.urls.gateway, 'POST', '/portal/domains', { token: key, body, headers });
          if (!retryLater(last)) return last;
          busyAnswers++;
          return undefined;
        },
        { timeoutMs: 60_000, intervalMs: 250, what: `the create of ${host}` },
      );
    } catch {
      return last!;
    }
  }

  /** CREATES domain creates through the gateway, CONCURRENCY at a time; onAnswered runs after each answer. */
  async function createDomains(onAnswered: (answered: number) => void): Promise<Created> {
    const created: Created = { domainIds: [], failures: [] };
    const suffix = randomBytes(4).toString('hex');
    let next = 0;
    let answered = 0;
    const lane = async () => {
      for (let i = next++; i < CREATES; i = next++) {
        const host = `n${i}-${suffix}.cluster-test.example.com`;
        const res = await createDomain(host, i);
        if (res.status === 200) created.domainIds.push((res.body as { result: { id: string } }).result.id);
        else created.failures.push(`${host}: ${res.status} ${JSON.stringify(res.body)}`);
        onAnswered(++answered);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, lane));
    return created;
  }

  /** domain.created deliveries the receiver got, by domain id (a duplicate shows as a count above 1). */
  function deliveriesByDomain(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const r of receiver.received) {
      const body = JSON.parse(r.body) as { event: string; params: { domain_id: string } };
      if (body.event !== 'domain.created') continue;
      counts.set(body.params.domain_id, (counts.get(body.params.domain_id) ?? 0) + 1);
    }
    return counts;
  }

  const countOf = async (query: string, params: unknown[] = []) =>
    ((await sys.db.query(query, params)).rows[0] as { n: number }).n;

  it(`when one of three nodes is killed during ${CREATES} creates, then ${CREATES} webhooks and ${CREATES} subscriptions arrive, each once`, async () => {
    // Every queue the platform consumes from is a quorum queue with a replica on each node.
    const members = await sys.cluster.queueMembers();
    for (const service of ['billing-svc', 'webhook-svc'])
      expect(members.get(`${sys.exchange}.${service}`)).toHaveLength(3);

    const [victim, ...survivors] = sys.cluster.nodes;
    // AMQP_URL names the victim first, so every process is connected to it: all of them must move.
    // Each service process holds one connection (the gateway none): five, and the two workers and two scanners.
    const processes = [...sys.platform.processes.keys()].filter((name) => name !== 'gateway').length + 4;
    const before = await sys.cluster.connectionsByNode();
    expect([...before.keys()]).toEqual([victim.name]);
    expect(before.get(victim.name)).toBeGreaterThanOrEqual(processes);
    const createsStarted = Date.now();
    let killedAt = 0;
    const created = await createDomains((answered) => {
      if (answered !== KILL_AFTER) return;
      sys.cluster.kill(victim);
      killedAt = Date.now();
      log(`killed ${victim.name} after ${answered} creates`);
    });
    log(
      `${CREATES} creates answered in ${((Date.now() - createsStarted) / 1000).toFixed(1)} s (${busyAnswers} busy answers retried)`,
    );
    expect({ failed: created.failures.length, first: created.failures.slice(0, 3) }).toEqual({ failed: 0, first: [] });
    expect(killedAt).toBeGreaterThan(0);
    expect(await sys.cluster.runningNodes(survivors[0])).toHaveLength(2);

    await waitFor(
      async () => {
        const delivered = deliveriesByDomain().size;
        const subscriptions = await countOf(
          'SELECT count(DISTINCT domain_id)::int AS n FROM billing.subscriptions WHERE partner_id = $1',
          [partnerId],
        );
        return delivered === CREATES && subscriptions === CREATES;
      },
      { timeoutMs: 300_000, intervalMs: 1_000, what: `${CREATES} webhooks and ${CREATES} subscriptions` },
    );
    const allArrived = Date.now();
    const after = await waitFor(
      async () => {
        const counts = await sys.cluster.connectionsByNode(survivors[0]);
        const total = [...counts.values()].reduce((a, b) => a + b, 0);
        return total >= processes ? counts : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 1_000, what: `all ${processes} processes reconnected to the surviving nodes` },
    );
    expect(after.has(victim.name)).toBe(false);
    log(`all arrived ${((allArrived - killedAt) / 1000).toFixed(1)} s after the node died`);

    // Nothing is left to send (every outbox row published, every delivery done), so no late duplicate is on its way.
    await waitFor(
      async () =>
        (await countOf('SELECT count(*)::int AS n FROM domains.outbox WHERE published_at IS NULL')) === 0 &&
        (await countOf('SELECT count(*)::int AS n FROM billing.outbox WHERE published_at IS NULL')) === 0 &&
        (await countOf(`SELECT count(*)::int AS n FROM webhooks.deliveries WHERE status = 'pending'`)) === 0,
      { timeoutMs: 60_000, intervalMs: 500, what: 'the outboxes and the deliveries to drain' },
    );
    const deliveries = deliveriesByDomain();
    const raw = [...deliveries.values()].reduce((a, b) => a + b, 0);
    log(`webhooks: ${deliveries.size} domains, ${raw} deliveries received (raw)`);
    expect([...deliveries.keys()].sort()).toEqual([...created.domainIds].sort());
    expect(raw).toBe(CREATES);
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(CREATES);
    expect(
      await countOf('SELECT count(*)::int AS n FROM billing.subscriptions WHERE partner_id = $1', [partnerId]),
    ).toBe(CREATES);
  });
});
