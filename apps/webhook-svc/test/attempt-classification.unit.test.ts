import {
  classifyAttempt,
  LOGGED_BODY_BYTES,
  loggedAnswer,
  type AttemptFailure,
} from '../src/domain/attempt-classification';

describe('attempt classification', () => {
  it('when the endpoint answers 2xx, then the attempt delivered, with no error, and the endpoint is well', () => {
    for (const status of [200, 202, 204, 299])
      expect(classifyAttempt(status)).toEqual({ ok: true, error: null, errorMessage: null, unwell: false });
  });

  it('when the endpoint answers a 3xx, then it is a redirect error (never followed) that does not count against the endpoint', () => {
    expect(classifyAttempt(301)).toEqual({
      ok: false,
      error: 'redirect',
      errorMessage: 'Redirects are not followed; register the final URL.',
      unwell: false,
    });
  });

  it('when the endpoint answers a 5xx or 429, then it failed and the endpoint is unwell; other 4xx fail without counting against it', () => {
    for (const status of [500, 503, 429])
      expect(classifyAttempt(status)).toEqual({ ok: false, error: null, errorMessage: null, unwell: true });
    for (const status of [400, 404, 410])
      expect(classifyAttempt(status)).toEqual({ ok: false, error: null, errorMessage: null, unwell: false });
  });

  it('when no answer came (network, timeout, refused address), then the failure kind is the error, the message is safe to show, and the endpoint is unwell', () => {
    const failed = (kind: AttemptFailure['kind'], message: string) => classifyAttempt(null, { kind, message });
    expect(failed('connect', 'connect ECONNREFUSED 127.0.0.1:9')).toEqual({
      ok: false,
      error: 'connect',
      errorMessage: 'connect ECONNREFUSED 127.0.0.1:9',
      unwell: true,
    });
    expect(failed('timeout', 'connect deadline of 5000 ms passed')).toMatchObject({
      error: 'timeout',
      errorMessage: 'No connection within the connect deadline.',
      unwell: true,
    });
    expect(failed('timeout', 'total deadline of 15000 ms passed')).toMatchObject({
      error: 'timeout',
      errorMessage: 'No complete answer within the deadline.',
    });
    expect(failed('dns', 'getaddrinfo ENOTFOUND internal.corp')).toMatchObject({
      error: 'dns',
      errorMessage: 'The host name did not resolve.',
    });
    const blocked = failed('blocked_address', 'hooks.example.com resolves to 10.0.0.5');
    expect(blocked).toMatchObject({ error: 'blocked_address', unwell: true });
    expect(blocked.errorMessage).not.toContain('10.0.0.5');
    expect(failed('response', 'x'.repeat(1_000)).errorMessage).toHaveLength(300);
  });

  it('when an answer is logged, then its first 20 KiB are kept as storable text, and a longer or cut-off body is marked truncated', () => {
    expect(loggedAnswer(undefined)).toEqual({ responseBody: null, responseTruncated: false });
    expect(loggedAnswer({ body: Buffer.from('ok\u0000!'), truncated: false })).toEqual({
      responseBody: 'ok!',
      responseTruncated: false,
    });
    const long = loggedAnswer({ body: Buffer.alloc(LOGGED_BODY_BYTES + 1, 'a'), truncated: false });
    expect(long.responseBody).toHaveLength(LOGGED_BODY_BYTES);
    expect(long.responseTruncated).toBe(true);
    expect(loggedAnswer({ body: Buffer.from('short'), truncated: true }).responseTruncated).toBe(true);
    expect(loggedAnswer({ body: Buffer.from([0xff, 0x41]), truncated: false }).responseBody).toBe('\ufffdA');
  });
});
