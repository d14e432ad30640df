import { deflateSync } from 'node:zlib';
import { retryPastInProgress } from '@platform/testing';
import {
  envelope,
  sharedSystem,
  startSystem,
  type ApiResponse,
  type OwnSystem,
  type Partner,
  type System,
} from './support/system';

const unique = (label: string) => `${label}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}.example.com`;
const createBody = (hostname: string, extra: Record<string, unknown> = {}) => ({
  domain: hostname,
  company_name: `Company of ${hostname}`,
  account_email: `owner@${hostname}`,
  ...extra,
});

describe('one partner cannot take the API down for another', () => {
  let sys: System;
  let attacker: Partner;
  let victim: Partner;

  beforeAll(async () => {
    sys = await sharedSystem();
    attacker = await sys.partner(undefined, ['--permissions', 'domains:read,domains:write']);
    victim = await sys.partner();
  });
  afterAll(() => sys?.close());

  /** Requests that used to answer 500 (and so opened the gateway's breaker for everyone). */
  const badRequests: (() => Promise<ApiResponse>)[] = [
    () => sys.call(attacker, 'GET', '/portal/domains?search=%00'),
    () => sys.call(attacker, 'GET', '/portal/domains?company_trade_name=%00&merchant_id=%00'),
    () => sys.call(attacker, 'POST', '/portal/domains', createBody(unique('nul'), { company_name: 'Bad\u0000Co' })),
    () => sys.call(attacker, 'POST', '/portal/domains', createBody(unique('sur'), { company_name: 'Bad\ud800Co' })),
    () => sys.call(attacker, 'POST', '/portal/domains', '{"domain":', { 'content-type': 'application/json' }),
    () =>
      sys.call(attacker, 'POST', '/portal/domains', JSON.stringify(createBody(unique('enc'))), {
        'content-type': 'application/json',
        'content-encoding': 'deflate',
      }),
    () =>
      sys.call(attacker, 'POST', '/portal/domains', JSON.stringify(createBody(unique('br'))), {
        'content-type': 'application/json',
        'content-encoding': 'br',
      }),
  ];

  it('when one partner bursts bad requests, then every one gets a 4xx envelope and another partner meanwhile always succeeds', async () => {
    let attacking = true;
    const attackerStatuses: number[] = [];
    const attackerEnvelopes: boolean[] = [];
    const attack = (async () => {
      try {
        for (let round = 0; round < 40; round++) {
          const answers = await Promise.all(badRequests.map((send) => send()));
          attackerStatuses.push(...answers.map((a) => a.status));
          attackerEnvelopes.push(...answers.map((a) => a.body?.error?.status === a.status));
        }
      } finally {
        attacking = false;
      }
    })();

    const victimStatuses: number[] = [];
    const own = (await sys.arrange(victim, 'POST', '/portal/domains', createBody(unique('victim')))).body.result.id;
    while (attacking || victimStatuses.length < 30) {
      const answers = await Promise.all([
        sys.call(victim, 'GET', '/portal/domains?limit=5'),
        sys.call(victim, 'GET', `/portal/domains/${own}`),
        sys.call(victim, 'POST', '/portal/domains', createBody(unique('victim'))),
      ]);
      victimStatuses.push(...answers.map((a) => a.status));
    }
    await attack;

    expect(attackerStatuses.length).toBe(40 * badRequests.length);
    expect(attackerStatuses.filter((s) => s < 400 || s >= 500)).toEqual([]);
    expect(attackerEnvelopes.every(Boolean)).toBe(true);
    expect(victimStatuses.filter((s) => s !== 200)).toEqual([]);
  });
});

describe('concurrent writes', () => {
  let sys: System;
  let partner: Partner;

  beforeAll(async () => {
    sys = await sharedSystem();
    partner = await sys.partner();
  });
  afterAll(() => sys?.close());

  it('when 20 creates with one company name run at once, then they all succeed and share one company', async () => {
    const company = `Shared Co ${Date.now()}`;
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        sys.call(partner, 'POST', '/portal/domains', createBody(unique('same'), { company_name: company })),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(new Set(answers.map((a) => a.body.result.instance_company_id)).size).toBe(1);
  });

  it('when creates reuse a company while its only domain is deleted, then no answer is a 5xx and every created domain has its company', async () => {
    const created: string[] = [];
    for (let round = 0; round < 6; round++) {
      const company = `Race Co ${Date.now()}-${round}`;
      const first = await sys.arrange(
        partner,
        'POST',
        '/portal/domains',
        createBody(unique('race'), { company_name: company }),
      );
      const answers = await Promise.all([
        sys.call(partner, 'DELETE', `/portal/domains/${first.body.result.id}`),
        ...Array.from({ length: 8 }, () =>
          sys.call(partner, 'POST', '/portal/domains', createBody(unique('race'), { company_name: company })),
        ),
      ]);
      expect(answers.map((a) => a.status)).toEqual(Array(9).fill(200));
      created.push(...answers.slice(1).map((a) => a.body.result.id));
    }
    for (const id of created) {
      const res = await sys.call(partner, 'GET', `/portal/domains/${id}`);
      expect([res.status, typeof res.body.result.property.company.id]).toEqual([200, 'string']);
    }
  });

  it('when a hostname is registered twice, then 409 DOMAIN.ALREADY_EXISTS names the existing domain', async () => {
    const hostname = unique('twice');
    const first = await sys.call(partner, 'POST', '/portal/domains', createBody(hostname));
    const again = await sys.call(partner, 'POST', '/portal/domains', createBody(hostname));
    expect(again.status).toBe(409);
    expect(again.body).toEqual(envelope('DOMAIN.ALREADY_EXISTS', 409));
    expect(again.body.error.data).toEqual({ id: first.body.result.id });
  });

  it('when a body is sent deflate-encoded for real, then it is accepted', async () => {
    const res = await fetch(`${sys.gateway}/portal/domains`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${partner.key}`,
        'content-type': 'application/json',
        'content-encoding': 'deflate',
      },
      body: deflateSync(Buffer.from(JSON.stringify(createBody(unique('deflate'))))),
    });
    expect(res.status).toBe(200);
  });
});

describe('a create that timed out', () => {
  let sys: OwnSystem;
  let partner: Partner;

  beforeAll(async () => {
    sys = await startSystem({ UPSTREAM_TIMEOUT_MS: '1000' });
    partner = await sys.partner();
  });
  afterAll(async () => {
    sys?.platform.processes.get('domains-svc')?.child.kill('SIGCONT');
    await sys?.close();
  });

  it('when the service was paused past the deadline and the create is retried with its Idempotency-Key, then every retry gets the one outcome and one domain exists', async () => {
    const domains = sys.platform.processes.get('domains-svc')!;
    const hostname = unique('paused');
    const headers = { 'idempotency-key': `create-${hostname}` };
    domains.child.kill('SIGSTOP');
    let timedOut: ApiResponse;
    try {
      timedOut = await sys.call(partner, 'POST', '/portal/domains', createBody(hostname), headers);
      expect(timedOut.status).toBe(503);
      // The key is kept by domains-svc itself: while it cannot answer, neither can a retry.
      const busy = await sys.call(partner, 'POST', '/portal/domains', createBody(hostname), headers);
      expect(busy.body).toEqual(envelope('SERVICE.UNAVAILABLE', 503));
    } finally {
      domains.child.kill('SIGCONT');
    }

    // Whether the paused create ran depends on whether domains-svc read it before the gateway hung
    // up (under load it may find the connection gone first); either way the key has one outcome:
    // a retry gets it (replayed if the paused create ran), and every later retry replays it.
    const replay = await retryPastInProgress(
      () => sys.call(partner, 'POST', '/portal/domains', createBody(hostname), headers),
      "the key's outcome",
    );
    expect(replay.status).toBe(200);
    expect(replay.body.result.hostname).toBe(hostname);
    const again = await sys.call(partner, 'POST', '/portal/domains', createBody(hostname), headers);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.text).toBe(replay.text);

    const listed = await sys.call(partner, 'GET', `/portal/domains?search=${hostname}`);
    expect(listed.body.result.map((d: { id: string }) => d.id)).toEqual([replay.body.result.id]);
    const withoutKey = await sys.call(partner, 'POST', '/portal/domains', createBody(hostname));
    expect(withoutKey.body.error.data).toEqual({ id: replay.body.result.id });
  });
});
