import { domainChangedEventSchema, propertyUpdatedEventSchema, type ScanFindings } from '@platform/contracts';
import { sql } from '@platform/db';
import { randomUUID } from 'node:crypto';
import { waitFor } from '@platform/testing';
import { queueScheduledScans } from '../src/scanner/scans.repository';
import type { ScanEngine } from '../src/scanner/scan-worker';
import { domainsService } from '../src/service';
import { widgetSettings } from '../src/widget/widget-settings.service';
import { createBody, startDomainsSvc, uniqueHost, type Harness, type TestPartner } from './support/harness';

type EngineResult = Awaited<ReturnType<ScanEngine['scan']>>;

/**
 * The scan workflow of domains-svc (routes, consumer, worker, status moves, e-mail, widget feed)
 * with the engine replaced at its port: each test says what "the site" gives. The engine itself
 * is tested in libs/scanner and, wired in, by the system tests (apps/e2e scans.system.test.ts).
 */
const sites = new Map<string, () => Promise<EngineResult>>();
const scanned: string[] = [];
const engine: ScanEngine = {
  scan: async ({ hostname }) => {
    scanned.push(hostname);
    const site = sites.get(hostname);
    return site ? site() : siteDown(hostname);
  },
  close: async () => undefined,
};

const counts = (c: Partial<ScanFindings['counts']>): ScanFindings['counts'] => ({
  necessary: 0,
  functional: 0,
  analytics: 0,
  marketing: 0,
  unclassified: 0,
  ...c,
});

function siteWithAnalytics(hostname: string): EngineResult {
  return {
    mode: 'http',
    failed: false,
    pages: [`https://${hostname}/`, `https://${hostname}/about`],
    findings: {
      scripts: [
        {
          url: 'https://www.google-analytics.com/analytics.js',
          host: 'www.google-analytics.com',
          category: 'analytics',
          vendor: 'Google',
        },
      ],
      cookies: [
        {
          name: '_ga',
          domain: `.${hostname}`,
          expires_at: '2027-11-24T00:00:00.000Z',
          first_party: true,
          category: 'analytics',
          vendor: 'Google',
        },
        {
          name: 'session',
          domain: hostname,
          expires_at: null,
          first_party: true,
          category: 'unclassified',
          vendor: null,
        },
      ],
      iframes: [],
      counts: counts({ analytics: 2, unclassified: 1 }),
    },
    errors: [],
  };
}

function siteDown(hostname: string): EngineResult {
  return {
    mode: 'http',
    failed: true,
    pages: [],
    findings: { scripts: [], cookies: [], iframes: [], counts: counts({}) },
    errors: [{ url: `https://${hostname}/`, code: 'SCAN.CONNECT_FAILED', message: 'connection refused' }],
  };
}

/** A site whose scan runs until the test lets it answer. */
function slowSite(hostname: string) {
  let release!: () => void;
  const answered = new Promise<void>((resolve) => (release = resolve));
  sites.set(hostname, async () => {
    await answered;
    return siteWithAnalytics(hostname);
  });
  return release;
}

let h: Harness;
beforeAll(async () => {
  h = await startDomainsSvc({ SCAN_MIN_INTERVAL_MS: '600000' }, { scanEngine: () => engine });
});
afterAll(() => h?.close());

async function createDomain(p: TestPartner, extra: Record<string, unknown> = {}) {
  const host = uniqueHost();
  const d = (await h.call(p, 'POST', '/portal/domains', createBody(host, extra))).body.result;
  return { host, id: d.id as string, propertyId: d.instance_property_id as string };
}

const finished = (p: TestPartner, domainId: string) =>
  waitFor(
    async () => {
      const r = await h.call(p, 'GET', `/portal/domains/${domainId}/scan`);
      return r.status === 200 && ['completed', 'failed'].includes(r.body.result.status) && r.body.result;
    },
    { what: 'the scan to end' },
  );
const statusOf = async (p: TestPartner, domainId: string) =>
  (await h.call(p, 'GET', `/portal/domains/${domainId}`)).body.result.status;

describe('scans: POST and GET /portal/domains/{domainId}/scan', () => {
  it('when a partner starts a scan, then it answers 202 queued and the report, once completed, has the pages, findings and counts', async () => {
    const p = h.partner();
    const d = await createDomain(p);
    sites.set(d.host, async () => siteWithAnalytics(d.host));
    const started = await h.call(p, 'POST', `/portal/domains/${d.id}/scan`);
    expect(started.status).toBe(202);
    expect(started.body.result).toMatchObject({
      domain_id: d.id,
      status: 'queued',
      requested_by: 'API',
      mode: null,
      pages: [],
      errors: [],
    });
    const report = await finished(p, d.id);
    expect(report).toMatchObject({
      id: started.body.result.id,
      status: 'completed',
      mode: 'http',
      pages: [`https://${d.host}/`, `https://${d.host}/about`],
    });
    expect(report.findings.scripts).toEqual([
      expect.objectContaining({ host: 'www.google-analytics.com', category: 'analytics', vendor: 'Google' }),
    ]);
    expect(report.findings.counts).toEqual(counts({ analytics: 2, unclassified: 1 }));
    expect(Date.parse(report.finished_at)).toBeGreaterThanOrEqual(Date.parse(report.started_at));
  });

  it('when a scan of the domain is queued or running, then another POST answers 409 DOMAIN.SCAN_IN_PROGRESS, and 202 is answered once (concurrent POSTs)', async () => {
    const p = h.partner();
    const d = await createDomain(p);
    const release = slowSite(d.host);
    const answers = await Promise.all([0, 1, 2].map(() => h.call(p, 'POST', `/portal/domains/${d.id}/scan`)));
    expect(answers.map((a) => a.status).sort()).toEqual([202, 409, 409]);
    expect(answers.find((a) => a.status === 409)!.body.error).toMatchObject({
      code: 'DOMAIN.SCAN_IN_PROGRESS',
      status: 409,
    });
    await waitFor(
      async () => (await h.call(p, 'GET', `/portal/domains/${d.id}/scan`)).body.result.status === 'running',
      { what: 'running' },
    );
    expect((await h.call(p, 'POST', `/portal/domains/${d.id}/scan`)).status).toBe(409);
    release();
    await finished(p, d.id);
  });

  it('when the domain was scanned less than SCAN_MIN_INTERVAL_MS ago, then POST answers 429 RATE.LIMITED with Retry-After', async () => {
    const p = h.partner();
    const d = await createDomain(p);
    sites.set(d.host, async () => siteWithAnalytics(d.host));
    await h.call(p, 'POST', `/portal/domains/${d.id}/scan`);
    await finished(p, d.id);
    const again = await h.call(p, 'POST', `/portal/domains/${d.id}/scan`);
    expect(again.status).toBe(429);
    expect(again.body.error.code).toBe('RATE.LIMITED');
    const retryAfter = Number(again.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(590);
    expect(retryAfter).toBeLessThanOrEqual(600);
  });

  it("when the domain was never scanned, or is another partner's, or the id is no uuid, then GET and POST answer 404", async () => {
    const p = h.partner();
    const other = h.partner();
    const d = await createDomain(p);
    expect((await h.call(p, 'GET', `/portal/domains/${d.id}/scan`)).body.error).toMatchObject({
      code: 'RESOURCE.NOT_FOUND',
      status: 404,
    });
    expect((await h.call(other, 'POST', `/portal/domains/${d.id}/scan`)).status).toBe(404);
    sites.set(d.host, async () => siteWithAnalytics(d.host));
    await h.call(p, 'POST', `/portal/domains/${d.id}/scan`);
    await finished(p, d.id);
    expect((await h.call(other, 'GET', `/portal/domains/${d.id}/scan`)).status).toBe(404);
    expect((await h.call(p, 'GET', '/portal/domains/not-a-uuid/scan')).status).toBe(404);
    expect((await h.call(p, 'POST', '/portal/domains/not-a-uuid/scan')).status).toBe(404);
  });

  it('when the key lacks domains:write, then POST answers 403', async () => {
    const reader = h.partner([], ['domains:read']);
    const d = await createDomain(h.partner());
    expect((await h.call(reader, 'POST', `/portal/domains/${d.id}/scan`)).status).toBe(403);
  });
});

describe('scans: what a finished scan does', () => {
  it('when a SCAN create is scanned, then the domain is SCANNED (domain.changed scanned) and the owner gets the report e-mail', async () => {
    const p = h.partner();
    const host = uniqueHost();
    sites.set(host, async () => siteWithAnalytics(host));
    const d = (
      await h.call(p, 'POST', '/portal/domains', createBody(host, { action: 'SCAN', account_first_name: 'Ada' }))
    ).body.result;
    const report = await finished(p, d.id);
    expect(report).toMatchObject({ status: 'completed', requested_by: 'SCAN' });
    expect(await statusOf(p, d.id)).toBe('SCANNED');
    const mail = await h.smtp.waitForMessage((m) => m.to.includes(`owner@${host}`));
    expect(mail.subject).toBe(`Scan report for ${host}`);
    expect(mail.decoded).toContain('Hello Ada,');
    expect(mail.decoded).toContain('analytics: 2');
    expect(mail.decoded).toContain('_ga (analytics, Google)');
    const changes = (await h.outbox(p.id, 'domain.changed')).map(
      (r) => domainChangedEventSchema.parse(r.message.payload).params,
    );
    expect(changes.map((c) => [c.change, c.domain.status])).toEqual([
      ['created', 'NEW'],
      ['scanned', 'SCANNED'],
    ]);
  });

  it('when a SCAN_INVITE create is scanned, then the domain ends INVITED (through SCANNED) and the owner gets the invitation, not the report', async () => {
    const p = h.partner();
    const host = uniqueHost();
    sites.set(host, async () => siteWithAnalytics(host));
    const d = (await h.call(p, 'POST', '/portal/domains', createBody(host, { action: 'SCAN_INVITE' }))).body.result;
    expect(d.status).toBe('NEW');
    await finished(p, d.id);
    const mail = await h.smtp.waitForMessage((m) => m.to.includes(`owner@${host}`));
    expect(mail.subject).toBe(`Activate the privacy widget on ${host}`);
    expect(mail.decoded).toContain(d.privacy_widget);
    expect(await statusOf(p, d.id)).toBe('INVITED');
    const changes = (await h.outbox(p.id, 'domain.changed')).map(
      (r) => domainChangedEventSchema.parse(r.message.payload).params.change,
    );
    expect(changes).toEqual(['created', 'scanned', 'invited']);
    const { rows } = await sql<{
      kind: string;
    }>`SELECT kind FROM domains.mail_queue WHERE partner_id = ${p.id}`.execute(h.deps.db);
    expect(rows.map((r) => r.kind)).toEqual(['invite']);
  });

  it('when the site cannot be read, then the scan ends failed with the error, a SCAN domain stays NEW and no e-mail is queued', async () => {
    const p = h.partner();
    const host = uniqueHost();
    const d = (await h.call(p, 'POST', '/portal/domains', createBody(host, { action: 'SCAN' }))).body.result;
    const report = await finished(p, d.id);
    expect(report).toMatchObject({
      status: 'failed',
      pages: [],
      errors: [{ url: `https://${host}/`, code: 'SCAN.CONNECT_FAILED', message: 'connection refused' }],
    });
    expect(await statusOf(p, d.id)).toBe('NEW');
    const { rows } = await sql`SELECT 1 FROM domains.mail_queue WHERE partner_id = ${p.id}`.execute(h.deps.db);
    expect(rows).toEqual([]);
  });

  it('when the domain is already INVITED or ACTIVE when its scan ends, then its status does not move back to SCANNED', async () => {
    const p = h.partner();
    const invited = await createDomain(p);
    const active = await createDomain(p);
    for (const d of [invited, active]) sites.set(d.host, async () => siteWithAnalytics(d.host));
    await h.call(p, 'POST', `/portal/domains/${invited.id}/invite`, {});
    await h.setStatus(active.id, 'ACTIVE');
    for (const d of [invited, active]) await h.call(p, 'POST', `/portal/domains/${d.id}/scan`);
    for (const d of [invited, active]) expect((await finished(p, d.id)).status).toBe('completed');
    expect(await statusOf(p, invited.id)).toBe('INVITED');
    expect(await statusOf(p, active.id)).toBe('ACTIVE');
  });

  it('when the scan finds cookies, then the widget lists them, its consent revision changes and property.updated is emitted once (not again for the same findings)', async () => {
    const p = h.partner();
    const d = await createDomain(p);
    const before = (await widgetSettings(h.context, d.propertyId)).body.result;
    expect(before.cookies).toEqual([]);
    sites.set(d.host, async () => siteWithAnalytics(d.host));
    await h.call(p, 'POST', `/portal/domains/${d.id}/scan`);
    await finished(p, d.id);
    const after = (await widgetSettings(h.context, d.propertyId)).body.result;
    expect(after.cookies).toEqual([
      {
        name: '_ga',
        domain: `.${d.host}`,
        category: 'analytics',
        vendor: 'Google',
        expires_at: '2027-11-24T00:00:00.000Z',
      },
      { name: 'session', domain: d.host, category: 'unclassified', vendor: null, expires_at: null },
    ]);
    expect(
      after.data_collection.map((i) => [
        i.purposes[0].category,
        i.partners.map((x) => x.name),
        i.fields.map((f) => f.name),
      ]),
    ).toEqual([
      ['analytics', ['Google'], ['_ga']],
      ['unclassified', [], ['session']],
    ]);
    expect(after.consent_revision).not.toBe(before.consent_revision);
    const updates = (await h.outbox(p.id, 'property.updated')).map(
      (r) => propertyUpdatedEventSchema.parse(r.message.payload).params,
    );
    expect(updates).toEqual([
      expect.objectContaining({
        property_id: d.propertyId,
        cookies: after.cookies,
        data_collection: after.data_collection,
      }),
    ]);

    // The same findings again (after the interval): no new revision, no event.
    await sql`UPDATE domains.scans SET finished_at = now() - interval '1 hour' WHERE domain_id = ${d.id}`.execute(
      h.deps.db,
    );
    expect((await h.call(p, 'POST', `/portal/domains/${d.id}/scan`)).status).toBe(202);
    await waitFor(
      async () => (await h.call(p, 'GET', `/portal/domains/${d.id}/scan`)).body.result.status === 'completed' && true,
      { what: 'second scan' },
    );
    expect((await widgetSettings(h.context, d.propertyId)).body.result.consent_revision).toBe(after.consent_revision);
    expect(await h.outbox(p.id, 'property.updated')).toHaveLength(1);
  });
});

describe('scans: requests, leases and the schedule', () => {
  it('when a domain with a queued scan is deleted, then its scan goes with it', async () => {
    const p = h.partner();
    const host = uniqueHost();
    const release = slowSite(host);
    const d = (await h.call(p, 'POST', '/portal/domains', createBody(host, { action: 'SCAN' }))).body.result;
    await h.call(p, 'DELETE', `/portal/domains/${d.id}`);
    release();
    const { rows } = await sql`SELECT 1 FROM domains.scans WHERE domain_id = ${d.id}`.execute(h.deps.db);
    expect(rows).toEqual([]);
  });

  it('when a worker claimed a scan and died, then another claim takes it up once the lease ends and completes it', async () => {
    const p = h.partner();
    const d = await createDomain(p);
    sites.set(d.host, async () => siteWithAnalytics(d.host));
    // What a worker killed mid-scan leaves: the scan running, claimed once, its lease not yet ended.
    const { rows: held } = await sql<{ lease_until: Date }>`
      INSERT INTO domains.scans (id, partner_id, domain_id, requested_by, status, attempts, started_at, lease_until)
      VALUES (gen_random_uuid(), ${p.id}, ${d.id}, 'API', 'running', 1, now(), now() + interval '1500 milliseconds')
      RETURNING lease_until`.execute(h.deps.db);
    const report = await finished(p, d.id);
    expect(report.status).toBe('completed');
    const { rows } = await sql<{
      attempts: number;
      finished_at: Date;
    }>`SELECT attempts, finished_at FROM domains.scans WHERE domain_id = ${d.id}`.execute(h.deps.db);
    expect(rows[0].attempts).toBe(2);
    expect(rows[0].finished_at.getTime()).toBeGreaterThanOrEqual(held[0].lease_until.getTime());
  });

  it('when a property has continuous scanning on, then the schedule queues a SCHEDULE scan once per interval; properties without it get none', async () => {
    const p = h.partner();
    const on = await createDomain(p);
    const off = await createDomain(p);
    await sql`UPDATE domains.properties SET has_continuous_scanning = true WHERE id = ${on.propertyId}`.execute(
      h.deps.db,
    );
    const now = new Date();
    await queueScheduledScans(h.deps.db, { now, intervalMs: 3_600_000, limit: 10_000 });
    const queued = async (domainId: string) =>
      (
        await sql<{
          requested_by: string;
        }>`SELECT requested_by FROM domains.scans WHERE domain_id = ${domainId}`.execute(h.deps.db)
      ).rows;
    expect(await queued(on.id)).toEqual([{ requested_by: 'SCHEDULE' }]);
    expect(await queued(off.id)).toEqual([]);
    await finished(p, on.id);
    await queueScheduledScans(h.deps.db, {
      now: new Date(now.getTime() + 60_000),
      intervalMs: 3_600_000,
      limit: 10_000,
    });
    expect(await queued(on.id)).toHaveLength(1);
    await queueScheduledScans(h.deps.db, {
      now: new Date(now.getTime() + 3_700_000),
      intervalMs: 3_600_000,
      limit: 10_000,
    });
    expect(await queued(on.id)).toHaveLength(2);
  });
});

describe('scans: queued by the create itself', () => {
  // The api role alone, its outbox never relayed: only the create's own statement can queue a scan.
  let api: Harness;
  beforeAll(async () => {
    api = await startDomainsSvc({ DOMAINS_ROLE: 'api', OUTBOX_RELAY_ENABLED: 'false' });
  });
  afterAll(() => api?.close());

  const scansOf = async (domainId: string) =>
    (
      await sql<{
        requested_by: string;
        status: string;
      }>`SELECT requested_by, status FROM domains.scans WHERE domain_id = ${domainId}`.execute(api.deps.db)
    ).rows;

  it('when a create asks for a scan, then the create queues it in its own transaction: no event relayed, no scanner, the scan waits queued', async () => {
    const p = api.partner();
    const host = uniqueHost();
    const d = (await api.call(p, 'POST', '/portal/domains', createBody(host, { action: 'SCAN_INVITE' }))).body.result;
    expect(await scansOf(d.id)).toEqual([{ requested_by: 'SCAN_INVITE', status: 'queued' }]);
    expect((await api.call(p, 'GET', `/portal/domains/${d.id}/scan`)).body.result.status).toBe('queued');
    expect((await api.outbox(p.id)).map((r) => r.routing_key)).toEqual(['domain.created', 'domain.changed']);
  });

  it('when the previous release left a scan.requested in the outbox that no scan followed, then the upgrade queues that scan', async () => {
    const p = api.partner();
    const d = (await api.call(p, 'POST', '/portal/domains', createBody(uniqueHost()))).body.result;
    const handled = (await api.call(p, 'POST', '/portal/domains', createBody(uniqueHost(), { action: 'SCAN' }))).body
      .result;
    const requested = (id: string, action: string) => ({
      id: randomUUID(),
      partner_id: p.id,
      payload: { event: 'scan.requested', params: { domain_id: id, action, invite: action === 'SCAN_INVITE' } },
    });
    for (const [id, action] of [
      [d.id, 'SCAN_INVITE'],
      [handled.id, 'SCAN'],
    ])
      await sql`INSERT INTO domains.outbox (id, routing_key, message) VALUES (${randomUUID()}, 'scan.requested', ${JSON.stringify(requested(id, action))}::jsonb)`.execute(
        api.deps.db,
      );
    await domainsService.migrations['2026_11_26_0001_scans_queued_by_creates'].up(api.deps.db);
    expect(await scansOf(d.id)).toEqual([{ requested_by: 'SCAN_INVITE', status: 'queued' }]);
    // Its scan is queued already: nothing more.
    expect(await scansOf(handled.id)).toEqual([{ requested_by: 'SCAN', status: 'queued' }]);
  });
});
