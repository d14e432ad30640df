import { AppError } from '@platform/http';
import { idempotencyKeyOf, isKeptAnswer, requestFingerprint } from '../src/idempotency/rules';

describe('Idempotency-Key rules', () => {
  it('when a write carries a printable key, then that key is used; on a read or without the header, none is', () => {
    expect(idempotencyKeyOf('POST', { 'idempotency-key': 'order-42 retry' })).toBe('order-42 retry');
    expect(idempotencyKeyOf('DELETE', { 'idempotency-key': 'k' })).toBe('k');
    expect(idempotencyKeyOf('GET', { 'idempotency-key': 'k' })).toBeUndefined();
    expect(idempotencyKeyOf('POST', {})).toBeUndefined();
  });

  it('when the key is empty, too long, not printable ASCII or sent twice, then 400 VALIDATION.INVALID names the header', () => {
    for (const value of ['', 'x'.repeat(256), 'schlüssel', 'tab\there', ['a', 'b']]) {
      let thrown: unknown;
      try {
        idempotencyKeyOf('PATCH', { 'idempotency-key': value });
      } catch (err) {
        thrown = err;
      }
      expect(thrown).toBeInstanceOf(AppError);
      expect((thrown as AppError).code).toBe('VALIDATION.INVALID');
      expect(JSON.stringify((thrown as AppError).data)).toContain('headers.Idempotency-Key');
    }
    expect(idempotencyKeyOf('PATCH', { 'idempotency-key': 'x'.repeat(255) })).toHaveLength(255);
  });

  it('when two JSON bodies differ only in key order and spacing, then they are the same request', () => {
    const a = requestFingerprint('POST', '/portal/domains', Buffer.from('{"name":"a","tags":[1,2]}'));
    const b = requestFingerprint('POST', '/portal/domains', Buffer.from('{ "tags" : [1, 2], "name" : "a" }'));
    expect(a.equals(b)).toBe(true);
  });

  it('when the method, the path with its query, or the body differs, then it is another request', () => {
    const base = requestFingerprint('POST', '/portal/domains?x=1', Buffer.from('{"name":"a"}'));
    expect(base.equals(requestFingerprint('PUT', '/portal/domains?x=1', Buffer.from('{"name":"a"}')))).toBe(false);
    expect(base.equals(requestFingerprint('POST', '/portal/domains?x=2', Buffer.from('{"name":"a"}')))).toBe(false);
    expect(base.equals(requestFingerprint('POST', '/portal/domains?x=1', Buffer.from('{"name":"b"}')))).toBe(false);
    expect(base.equals(requestFingerprint('POST', '/portal/domains?x=1', undefined))).toBe(false);
  });

  it('when a body is not JSON, then its bytes are compared as they are', () => {
    const a = requestFingerprint('POST', '/p', Buffer.from('not json '));
    expect(a.equals(requestFingerprint('POST', '/p', Buffer.from('not json ')))).toBe(true);
    expect(a.equals(requestFingerprint('POST', '/p', Buffer.from('not json')))).toBe(false);
  });

  it('when the service answered below 500, then the answer is kept; a 5xx or a 429 is not (the request may run again)', () => {
    expect([200, 201, 204, 400, 404, 409, 422, 499].every(isKeptAnswer)).toBe(true);
    expect([429, 500, 502, 503, 504].some(isKeptAnswer)).toBe(false);
  });
});
