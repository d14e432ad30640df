import { requestFingerprint } from '@platform/service';
import { bearer, envelope, json, startGateway, startSuite, type Gateway, type Suite } from './support/harness';

/**
 * The gateway's part of Idempotency-Key: it checks the key and passes it on with the fingerprint
 * of the partner's request; the service that owns the write keeps the key and replays its answer
 * (libs/service/test/idempotency.response.test.ts, apps/e2e idempotency-crash).
 */
describe('Idempotency-Key on writes, at the gateway', () => {
  let suite: Suite;
  let gateway: Gateway;
  let key: string;

  beforeAll(async () => {
    suite = await startSuite();
    gateway = await startGateway(suite.env);
    key = (await suite.key(await suite.partner())).key;
  });
  afterAll(async () => {
    await gateway?.close();
    await suite?.close();
  });

  const post = (body: string, idempotencyKey?: string) =>
    fetch(`${gateway.url}/portal/things?x=1`, {
      method: 'POST',
      headers: bearer(key, {
        'content-type': 'application/json',
        ...(idempotencyKey === undefined ? {} : { 'idempotency-key': idempotencyKey }),
      }),
      body,
    });

  it("when a write carries a key, then the service gets the key and the fingerprint of the partner's method, path and body", async () => {
    const body = '{ "name" : "a", "n": 1 }';
    const res = await json(await post(body, 'key-1'));
    expect(res.result.idempotencyKey).toBe('key-1');
    expect(res.result.fingerprint).toBe(
      requestFingerprint('POST', '/portal/things?x=1', Buffer.from('{"n":1,"name":"a"}')).toString('hex'),
    );
  });

  it('when a write has no key, or a GET sends one, then the service gets neither header and every write runs', async () => {
    const a = await json(await post('{"name":"i"}'));
    const b = await json(await post('{"name":"i"}'));
    expect([a.result.idempotencyKey, a.result.fingerprint]).toEqual([null, null]);
    expect(b.result.seq).toBe(a.result.seq + 1);
    const get = await fetch(`${gateway.url}/portal/things`, { headers: bearer(key, { 'idempotency-key': 'k' }) });
    expect((await json(get)).result.idempotencyKey).toBeNull();
  });

  it("when a partner sends the fingerprint header itself, then the service gets the gateway's, never the partner's", async () => {
    const res = await fetch(`${gateway.url}/portal/things`, {
      method: 'POST',
      headers: bearer(key, { 'content-type': 'application/json', 'x-idempotency-fingerprint': '00'.repeat(32) }),
      body: '{"name":"j"}',
    });
    expect((await json(res)).result.fingerprint).toBeNull();
  });

  it.each([
    ['empty', ''],
    ['too long', 'k'.repeat(256)],
  ])('when the key is %s, then 400 names the Idempotency-Key header', async (_what, value) => {
    const res = await post('{"name":"h"}', value);
    expect(res.status).toBe(400);
    const body = await json(res);
    expect(body).toEqual(envelope('VALIDATION.INVALID', 400));
    expect(body.error.data.issues[0].path).toBe('headers.Idempotency-Key');
  });
});
