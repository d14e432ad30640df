import { waitFor } from '@platform/testing';
import { bearer, envelope, json, startGateway, startSuite, type Gateway, type Suite } from './support/harness';

const SHARE = 4;
const FLOOD = 40;

describe("fair share: one partner's flood waits in its own line at the gateway", () => {
  let suite: Suite;
  let gateway: Gateway;
  let a: string;
  let b: string;

  beforeAll(async () => {
    suite = await startSuite();
    gateway = await startGateway({
      ...suite.env,
      FAIR_SHARE_MAX_IN_FLIGHT: String(SHARE),
      // No borrowing: B's flood, alone, is held to its share.
      FAIR_SHARE_SERVICE_MAX_IN_FLIGHT: String(SHARE),
      FAIR_SHARE_QUEUE_TIMEOUT_MS: '1000',
      RATE_LIMIT_PER_MINUTE: '1000000',
    });
    a = (await suite.key(await suite.partner())).key;
    b = (await suite.key(await suite.partner())).key;
  });
  afterAll(async () => {
    suite?.upstream.release();
    await gateway?.close();
    await suite?.close();
  });

  it(`when partner B has ${FLOOD} calls stuck in the service, then B holds only ${SHARE} of them there, partner A's read is answered at once, and B's waiting calls get 429 RATE.LIMITED with Retry-After after the queue deadline`, async () => {
    const { upstream } = suite;
    // The service holds each of B's calls that reaches it, the way a slow dependency or a row lock would.
    const settled: { status: number; body: unknown; retryAfter: string | null }[] = [];
    const answers = Promise.all(
      Array.from({ length: FLOOD }, async (_, i) => {
        const res = await fetch(`${gateway.url}/portal/things`, {
          method: 'POST',
          headers: bearer(b, { 'content-type': 'application/json' }),
          body: JSON.stringify({ name: `hold ${i}` }),
        });
        const answer = { status: res.status, body: await json(res), retryAfter: res.headers.get('retry-after') };
        settled.push(answer);
        return answer;
      }),
    );
    try {
      await waitFor(() => upstream.held() >= SHARE, { what: `${SHARE} of B's calls held by the service` });

      const started = Date.now();
      const read = await fetch(`${gateway.url}/portal/things/a-thing`, { headers: bearer(a) });
      const readMs = Date.now() - started;
      expect({ status: read.status, fast: readMs < 1000 }).toEqual({ status: 200, fast: true });
      expect(upstream.held()).toBe(SHARE);

      // The calls beyond B's share wait in B's queue for at most FAIR_SHARE_QUEUE_TIMEOUT_MS.
      await waitFor(() => settled.length >= FLOOD - SHARE, { what: "B's queued calls to be refused" });
      expect(settled.map((r) => r.status)).toEqual(Array(FLOOD - SHARE).fill(429));
      expect(settled[0].body).toEqual(envelope('RATE.LIMITED', 429));
      expect(settled[0].retryAfter).toBe('1');
      expect(upstream.held()).toBe(SHARE);
    } finally {
      upstream.release();
    }
    // B's calls that held a slot finish once the service lets them go.
    const statuses = (await answers).map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(SHARE);
  });
});
