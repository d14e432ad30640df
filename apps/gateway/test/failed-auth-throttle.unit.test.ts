import { clientAddressKey, FailedAuthThrottle } from '../src/domain/failed-auth-throttle';

describe('failed authentications per client address', () => {
  it('when an address fails more often than the limit allows, then each further failure gets a Retry-After until a failure is allowed again', () => {
    let now = 1_000_000;
    const seen: boolean[] = [];
    // 3 a minute: all 3 at once, then one every 20 s as they come back.
    const throttle = new FailedAuthThrottle(
      3,
      (throttled) => seen.push(throttled),
      () => now,
    );
    expect([throttle.failed('203.0.113.7'), throttle.failed('203.0.113.7'), throttle.failed('203.0.113.7')]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    now += 5_000;
    expect(throttle.failed('203.0.113.7')).toBe('15');
    expect(throttle.failed('203.0.113.8')).toBeUndefined();
    expect(seen).toEqual([false, false, false, true, false]);
    now += 15_000;
    expect(throttle.failed('203.0.113.7')).toBeUndefined();
    expect(throttle.failed('203.0.113.7')).toBe('20');
  });

  it('when the address is IPv4 on a dual-stack socket, then it counts as the IPv4 address', () => {
    expect(clientAddressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientAddressKey('203.0.113.7')).toBe('203.0.113.7');
  });

  it('when IPv6 addresses share a /64, then they count as one address, however they are written', () => {
    const key = '2001:db8:0:1::/64';
    expect(clientAddressKey('2001:db8:0:1::1')).toBe(key);
    expect(clientAddressKey('2001:0db8:0000:0001:ffff:1:2:3')).toBe(key);
    expect(clientAddressKey('2001:DB8:0:1:a::%eth0')).toBe(key);
    expect(clientAddressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientAddressKey('::1')).toBe('0:0:0:0::/64');
    expect(clientAddressKey('2001:db8:0:2::1')).not.toBe(key);
  });
});
