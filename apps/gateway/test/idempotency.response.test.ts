import { createHash } from 'node:crypto';
import { waitFor } from '@platform/testing';
import { bearer, envelope, json, startGateway, startSuite, type Gateway, type Suite } from './support/harness';

describe('Idempotency-Key on writes', () => {
  let suite: Suite;
  let gateway: Gateway;
  let key: string;
  let otherKey: string;

  beforeAll(async () => {
    suite = await startSuite();
    // A short partner deadline, so a slow write outlives it while the gateway keeps waiting.
    gateway = await startGateway({ ...suite.env, UPSTREAM_TIMEOUT_MS: '400', IDEMPOTENT_COMPLETION_TIMEOUT_MS: '10000' });
    key = (await suite.key(await suite.partner())).key;
    otherKey = (await suite.key(await suite.partner())).key;
  });
  afterAll(async () => {
    await gateway?.close();
    await suite?.close();
  });

  let n = 0;
  const newKey = () => `idem-${Date.now()}-${++n}`;
  const post = (apiKey: string, body: string, idempotencyKey?: string, path = '/portal/things') =>
    fetch(`${gateway.url}${path}`, {
      method: 'POST',
      headers: bearer(apiKey, { 'content-type': 'application/json', ...(idempotencyKey === undefined ? {} : { 'idempotency-key': idempotencyKey }) }),
      body,
    });

  it('when a write is retried with the same key and body, then the first answer is replayed and the service ran once', async () => {
    const k = newKey();
    const first = await post(key, '{"name":"a"}', k);
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const firstBody = await first.text();
    const again = await post(key, '{"name":"a"}', k);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('content-type')).toContain('application/json');
    expect(await again.text()).toBe(firstBody);
  });

  it('when the retried body is the same JSON with other spacing and key order, then it still replays', async () => {
    const k = newKey();
    const first = await json(await post(key, '{"name":"b","n":1}', k));
    const again = await post(key, '{ "n" : 1, "name" : "b" }', k);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect((await json(again)).result.seq).toBe(first.result.seq);
  });

  it('when the key is reused with another body or on another path, then 409 IDEMPOTENCY.KEY_REUSED and nothing runs', async () => {
    const k = newKey();
    const first = await json(await post(key, '{"name":"c"}', k));
    const otherBody = await post(key, '{"name":"d"}', k);
    expect(otherBody.status).toBe(409);
    expect(await json(otherBody)).toEqual(envelope('IDEMPOTENCY.KEY_REUSED', 409));
    const otherPath = await fetch(`${gateway.url}/portal/things/x`, { method: 'DELETE', headers: bearer(key, { 'idempotency-key': k }) });
    expect(await json(otherPath)).toEqual(envelope('IDEMPOTENCY.KEY_REUSED', 409));
    // The next execution is the very next sequence number: the refused requests never ran.
    expect((await json(await post(key, '{"name":"e"}'))).result.seq).toBe(first.result.seq + 1);
  });

  it('when another partner uses the same key, then its request is its own', async () => {
    const k = newKey();
    const mine = await json(await post(key, '{"name":"f"}', k));
    const theirs = await post(otherKey, '{"name":"f"}', k);
    expect(theirs.status).toBe(201);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect((await json(theirs)).result.caller.partnerId).not.toBe(mine.result.caller.partnerId);
  });

  it('when the first request is still running, then a retry gets 409 IDEMPOTENCY.IN_PROGRESS, and after it ends the replay', async () => {
    const k = newKey();
    const slow = post(key, '{"name":"slow-300"}', k);
    // The first request has claimed the key once its row exists (found by the key's SHA-256: the key itself is not stored).
    const stored = createHash('sha256').update(k).digest('hex');
    await waitFor(() => gateway.deps.db.selectFrom('idempotency_keys').select('key').where('key', '=', stored).executeTakeFirst(), { timeoutMs: 2_000, what: 'the claim' });
    const busy = await post(key, '{"name":"slow-300"}', k);
    expect(await json(busy)).toEqual(envelope('IDEMPOTENCY.IN_PROGRESS', 409));
    const first = await slow;
    expect(first.status).toBe(201);
    const replay = await post(key, '{"name":"slow-300"}', k);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect((await json(replay)).result.seq).toBe((await json(first)).result.seq);
  });

  it('when the service answers 5xx, then the answer is not kept and a retry runs again', async () => {
    for (const body of ['{"name":"answer-500"}', '{"name":"answer-503"}']) {
      const k = newKey();
      const first = await post(key, body, k);
      expect(first.status).toBeGreaterThanOrEqual(500);
      const retry = await post(key, body, k);
      expect(retry.headers.get('idempotent-replayed')).toBeNull();
      expect(retry.status).toBe(first.status);
    }
  });

  it('when the service answers after the partner deadline, then the partner gets 503 and the retry gets the late answer, run once', async () => {
    const k = newKey();
    const timedOut = await post(key, '{"name":"slow-1500"}', k);
    expect(timedOut.status).toBe(503);
    expect(await json(timedOut)).toEqual(envelope('SERVICE.UNAVAILABLE', 503));
    const busy = await post(key, '{"name":"slow-1500"}', k);
    expect(await json(busy)).toEqual(envelope('IDEMPOTENCY.IN_PROGRESS', 409));
    const replay = await waitFor(
      async () => {
        const res = await post(key, '{"name":"slow-1500"}', k);
        return res.status === 201 ? res : undefined;
      },
      { timeoutMs: 5_000, what: 'the late answer' },
    );
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    const seq = (await json(replay)).result.seq;
    // Nothing ran between: the next execution takes the next number.
    expect((await json(await post(key, '{"name":"g"}'))).result.seq).toBe(seq + 1);
  });

  it.each([
    ['empty', ''],
    ['too long', 'k'.repeat(256)],
  ])('when the key is %s, then 400 names the Idempotency-Key header', async (_what, value) => {
    const res = await post(key, '{"name":"h"}', value);
    expect(res.status).toBe(400);
    const body = await json(res);
    expect(body).toEqual(envelope('VALIDATION.INVALID', 400));
    expect(body.error.data.issues[0].path).toBe('headers.Idempotency-Key');
  });

  it('when a write has no key, then every request runs; a GET ignores the header', async () => {
    const a = await json(await post(key, '{"name":"i"}'));
    const b = await json(await post(key, '{"name":"i"}'));
    expect(b.result.seq).toBe(a.result.seq + 1);
    const get = await fetch(`${gateway.url}/portal/things`, { headers: bearer(key, { 'idempotency-key': '' }) });
    expect(get.status).toBe(200);
  });
});
