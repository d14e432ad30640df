import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from '@platform/db';
import { busyChildProcesses } from '@platform/testing';
import type { ScanEngine } from '../src/scanner/scan-worker';
import { createBody, startDomainsSvc, uniqueHost, type Harness } from './support/harness';
import { finished, queueScan } from './support/scans';

/**
 * Sites that attack the scanner rather than being scanned: a page whose script never yields, and
 * an engine that never returns. Whatever a site does, each scan ends, its slot frees and the
 * other sites are scanned in their time.
 */
const endedAt = async (h: Harness, domainId: string) => {
  const { rows } = await sql<{ finished_at: Date }>`
    SELECT finished_at FROM domains.scans WHERE domain_id = ${domainId}`.execute(h.deps.db);
  return rows[0].finished_at.getTime();
};

describe('scans: pages whose script never yields, in the real browser (SCANNER_CONCURRENCY=2)', () => {
  // The ratio of production's defaults (15 s and 120 s), shortened.
  const PAGE_TIMEOUT_MS = 4_000;
  const SCAN_TIMEOUT_MS = 32_000;
  let site: Server;
  let h: Harness;

  beforeAll(async () => {
    // Every host answers over http from here (https goes to a closed port); hosts named spin-* spin.
    site = createServer((req, res) => {
      const spin = (req.headers.host ?? '').startsWith('spin-');
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(spin ? '<p>spinning</p><script>while (true) {}</script>' : '<p>calm</p><a href="/about">about</a>');
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const port = (site.address() as AddressInfo).port;
    h = await startDomainsSvc({
      SCANNER_MODE: 'browser',
      SCANNER_CONCURRENCY: '2',
      SCANNER_CONNECT_TO: `*:443:127.0.0.1:9,*:80:127.0.0.1:${port}`,
      SCANNER_PAGE_TIMEOUT_MS: String(PAGE_TIMEOUT_MS),
      SCANNER_SCAN_TIMEOUT_MS: String(SCAN_TIMEOUT_MS),
      SCAN_LEASE_MS: '60000',
    });
  });
  afterAll(async () => {
    await h?.close();
    site?.closeAllConnections();
    await new Promise((resolve) => site?.close(resolve));
  });

  it('when two spinning sites take both slots and a normal one waits, then the normal one ends within one scan time-out, the spinning ones in http mode, and no renderer keeps a core busy', async () => {
    const p = h.partner();
    const spinning = [await queueScan(h, p, uniqueHost('spin')), await queueScan(h, p, uniqueHost('spin'))];
    const queuedAt = Date.now();
    const normal = await queueScan(h, p, uniqueHost('calm'));

    const report = await finished(h, p, normal);
    expect({ status: report.status, errors: report.errors }).toEqual({ status: 'completed', errors: [] });
    expect((await endedAt(h, normal)) - queuedAt).toBeLessThan(SCAN_TIMEOUT_MS);

    for (const id of spinning) {
      const spun = await finished(h, p, id);
      expect(spun.status).toBe('completed');
      expect(spun.mode).toBe('http');
      expect(spun.errors.map((e: { code: string }) => e.code)).toEqual(['SCAN.TIMEOUT']);
    }
    expect(await busyChildProcesses()).toEqual([]);
  });
});

describe('scans: an engine that never returns (SCANNER_CONCURRENCY=1)', () => {
  const SCAN_TIMEOUT_MS = 1_000;
  const LEASE_MS = 3_000;
  const targets: Array<{ hostname: string; mode?: string }> = [];
  const engine: ScanEngine = {
    scan: (target) => {
      targets.push(target);
      // A stuck site: ignores the signal, never settles.
      if (target.hostname.startsWith('stuck-')) return new Promise(() => undefined);
      return Promise.resolve({
        mode: target.mode ?? 'browser',
        failed: false,
        pages: [`https://${target.hostname}/`],
        findings: {
          scripts: [],
          cookies: [],
          iframes: [],
          counts: { necessary: 0, functional: 0, analytics: 0, marketing: 0, unclassified: 0 },
        },
        errors: [],
      });
    },
    close: async () => undefined,
  };
  let h: Harness;
  beforeAll(async () => {
    h = await startDomainsSvc(
      {
        SCANNER_CONCURRENCY: '1',
        SCANNER_SCAN_TIMEOUT_MS: String(SCAN_TIMEOUT_MS),
        SCAN_LEASE_MS: String(LEASE_MS),
      },
      { scanEngine: () => engine },
    );
  });
  afterAll(() => h?.close());

  it('when a scan does not end, then it is stopped halfway to its lease end as failed SCAN.TIMEOUT, and its slot scans the next site', async () => {
    const p = h.partner();
    const stuck = await queueScan(h, p, uniqueHost('stuck'));
    const next = await queueScan(h, p, uniqueHost('calm'));

    const stopped = await finished(h, p, stuck);
    expect(stopped.status).toBe('failed');
    expect(stopped.errors.map((e: { code: string }) => e.code)).toEqual(['SCAN.TIMEOUT']);
    const { rows } = await sql<{ ran_ms: number; attempts: number }>`
      SELECT (extract(epoch FROM finished_at - started_at) * 1000)::int AS ran_ms, attempts
      FROM domains.scans WHERE domain_id = ${stuck}`.execute(h.deps.db);
    // Stopped at the scan time-out plus half the rest of the lease (2 s), once, not claimed again.
    expect(rows[0].attempts).toBe(1);
    expect(rows[0].ran_ms).toBeGreaterThanOrEqual(SCAN_TIMEOUT_MS + (LEASE_MS - SCAN_TIMEOUT_MS) / 2 - 100);
    expect(rows[0].ran_ms).toBeLessThan(LEASE_MS);

    expect((await finished(h, p, next)).status).toBe('completed');
  });

  it('when a scan is claimed again after a run that never ended, then it runs without the browser (http mode); a first claim may use it', async () => {
    const p = h.partner();
    const fresh = await queueScan(h, p, uniqueHost('calm'));
    await finished(h, p, fresh);
    const host = uniqueHost('again');
    const d = (await h.call(p, 'POST', '/portal/domains', createBody(host))).body.result;
    // What a worker that died mid-scan leaves: the scan running, claimed once, its lease about to end.
    await sql`
      INSERT INTO domains.scans (id, partner_id, domain_id, requested_by, status, attempts, started_at, lease_until)
      VALUES (gen_random_uuid(), ${p.id}, ${d.id}, 'API', 'running', 1, now(), now() + interval '200 milliseconds')`.execute(
      h.deps.db,
    );
    const report = await finished(h, p, d.id);
    expect({ status: report.status, mode: report.mode }).toEqual({ status: 'completed', mode: 'http' });
    expect(targets.filter((t) => t.hostname === host)).toEqual([{ hostname: host, mode: 'http' }]);
    expect(targets.find((t) => t.hostname !== host && t.hostname.startsWith('calm-'))).not.toHaveProperty('mode');
  });
});
