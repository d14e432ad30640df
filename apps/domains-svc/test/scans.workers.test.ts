import type { ScanEngine } from '../src/scanner/scan-worker';
import { sql } from '@platform/db';
import { waitFor } from '@platform/testing';
import { createBody, startDomainsSvc, uniqueHost, type Harness, type TestPartner } from './support/harness';

/**
 * How the scan worker shares its slots (SCANNER_CONCURRENCY=2): never more scans at once, and
 * a fair share between partners. The engine is a stub that holds each scan until the test lets
 * it end, counting the scans that run at once.
 */
const started: string[] = [];
const held: Array<() => void> = [];
let holding = true;
let running = 0;
let mostAtOnce = 0;
const engine: ScanEngine = {
  scan: async ({ hostname }) => {
    running += 1;
    mostAtOnce = Math.max(mostAtOnce, running);
    started.push(hostname);
    if (holding) await new Promise<void>((resolve) => held.push(resolve));
    running -= 1;
    return {
      mode: 'http',
      failed: false,
      pages: [`https://${hostname}/`],
      findings: {
        scripts: [],
        cookies: [],
        iframes: [],
        counts: { necessary: 0, functional: 0, analytics: 0, marketing: 0, unclassified: 0 },
      },
      errors: [],
    };
  },
  close: async () => undefined,
};

let h: Harness;
beforeAll(async () => {
  h = await startDomainsSvc({ SCANNER_CONCURRENCY: '2' }, { scanEngine: () => engine });
});
afterAll(async () => {
  holding = false;
  held.splice(0).forEach((release) => release());
  await h?.close();
});
beforeEach(() => {
  started.length = 0;
  holding = true;
  mostAtOnce = 0;
});

/** Creates a domain and queues its scan; its host name. */
async function queueScan(p: TestPartner): Promise<string> {
  const host = uniqueHost();
  const d = (await h.call(p, 'POST', '/portal/domains', createBody(host))).body.result;
  expect((await h.call(p, 'POST', `/portal/domains/${d.id}/scan`)).status).toBe(202);
  return host;
}

const allEnded = (p: TestPartner, count: number) =>
  waitFor(
    async () => {
      const { rows } = await sql<{ ended: number }>`
        SELECT count(*)::int AS ended FROM domains.scans
        WHERE partner_id = ${p.id} AND status IN ('completed', 'failed')`.execute(h.deps.db);
      return rows[0].ended === count;
    },
    { what: `${count} scans to end` },
  );

describe('scans: the worker slots', () => {
  it('when 8 scans are queued with SCANNER_CONCURRENCY=2, then at most 2 run at once until all have run', async () => {
    const p = h.partner();
    const hosts: string[] = [];
    for (let i = 0; i < 8; i++) hosts.push(await queueScan(p));
    await waitFor(() => running === 2, { what: 'two scans running' });
    // Let one scan end at a time: each freed slot is filled again, never more than two.
    while (started.length < 8 || held.length > 0) {
      await waitFor(() => held.length > 0, { what: 'a scan to hold' });
      held.shift()!();
    }
    await allEnded(p, 8);
    expect([...started].sort()).toEqual([...hosts].sort());
    expect(mostAtOnce).toBe(2);
  });

  it("when partner B queued 12 scans and partner A then queues 1, then the first slot that frees runs A's scan, before B's other ten", async () => {
    const a = h.partner();
    const b = h.partner();
    const hostsOfB: string[] = [];
    for (let i = 0; i < 12; i++) hostsOfB.push(await queueScan(b));
    await waitFor(() => running === 2, { what: "two of B's scans running" });
    const hostOfA = await queueScan(a);
    held.shift()!();
    await waitFor(() => started.length === 3, { what: 'the freed slot to be filled' });
    holding = false;
    held.splice(0).forEach((release) => release());
    await allEnded(a, 1);
    await allEnded(b, 12);
    // The first two are B's (they held both slots when A's came); the first freed slot goes to A.
    expect(started.slice(0, 2).every((host) => hostsOfB.includes(host))).toBe(true);
    expect(started[2]).toBe(hostOfA);
  });
});
