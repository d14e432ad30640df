import { randomUUID } from 'node:crypto';
import { generateInternalKeyPair, InternalTokenMinter } from '@platform/auth';
import { PERMISSIONS } from '@platform/contracts';
import { startTestService } from '@platform/testing';
import { billingService } from '../src/service';

/** Calls per connection and connections per direction: 8+8 overlapping batches is what deadlocked. */
const CALLS = 3;
const CONNECTIONS = 8;
const SUBSCRIPTIONS = 60;

describe('billing-svc product changes under write contention', () => {
  const services = generateInternalKeyPair();
  const start = () => startTestService(billingService, { SERVICE_JWT_PUBLIC_KEY: services.publicKey });
  let t: Awaited<ReturnType<typeof start>>;
  const minter = new InternalTokenMinter(services.privateKey, 60, 'services');
  beforeAll(async () => {
    t = await start();
  });
  afterAll(() => t?.close());

  const change = async (partnerId: string, changes: unknown[]) => {
    const token = minter.mint(
      { partnerId, keyId: `svc-${partnerId}`, permissions: [...PERMISSIONS], requiredFields: [] },
      'billing',
    );
    const res = await fetch(`${t.url}/internal/subscriptions/product`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ changes }),
    });
    const body = (await res.json()) as { error?: { code: string } };
    return `${res.status} ${body.error?.code ?? ''}`.trim();
  };

  /** Opens SUBSCRIPTIONS subscriptions and answers the opposite batches over them, and a runner that tallies answers. */
  const contended = async () => {
    const ids = Array.from({ length: SUBSCRIPTIONS }, () => ({
      subscription_id: randomUUID(),
      domain_id: randomUUID(),
      start_date: new Date().toISOString(),
    }));
    // The first call opens them all (a change that arrives before domain.created opens its subscription).
    expect(
      await change(
        'contended',
        ids.map((s) => ({ ...s, product_id: 1, price_list_id: 1, price_id: 101 })),
      ),
    ).toBe('200');
    const up = ids.map((s) => ({ ...s, product_id: 3, price_list_id: 1, price_id: 301 }));
    const down = [...ids].reverse().map((s) => ({ ...s, product_id: 1, price_list_id: 1, price_id: 101 }));
    const answers = new Map<string, number>();
    let slowestMs = 0;
    const run = async (changes: unknown[], calls: number) => {
      for (let i = 0; i < calls; i++) {
        const started = Date.now();
        const answer = await change('contended', changes);
        slowestMs = Math.max(slowestMs, Date.now() - started);
        answers.set(answer, (answers.get(answer) ?? 0) + 1);
      }
    };
    const load = (connections: number, calls: number) =>
      Promise.all(Array.from({ length: connections }, () => [run(up, calls), run(down, calls)]).flat());
    return { answers, load, slowest: () => slowestMs };
  };

  it('when overlapping batches change the same subscriptions to opposite products in opposite orders, then every call answers 200 (no deadlock, no 500)', async () => {
    const { answers, load } = await contended();
    await load(CONNECTIONS, CALLS);
    expect(Object.fromEntries(answers)).toEqual({ '200': 2 * CONNECTIONS * CALLS });
  });

  it("when more batches arrive than the pool has connections (20+20), then each answers within the callers' 4 s deadline, 200 or 503, never 500", async () => {
    const { answers, load, slowest } = await contended();
    await load(20, 2);
    expect(Object.keys(answers).filter((answer) => !['200', '503 SERVICE.UNAVAILABLE'].includes(answer))).toEqual([]);
    expect(answers.get('200')).toBeGreaterThan(0);
    expect(slowest()).toBeLessThan(4_000);
  });
});
