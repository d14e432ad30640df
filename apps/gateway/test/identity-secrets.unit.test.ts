import { TotpSecretBox } from '../src/identity/secrets';
import { totpCodeAt, totpStepOf } from '../src/identity/totp';
import { WindowThrottle } from '@platform/coordination';

describe('sign-in throttle, TOTP secret box and codes', () => {
  it('when a key passes its limit in the window, then it is refused with the seconds left, and a new window starts afresh', () => {
    let now = 0;
    const throttle = new WindowThrottle(2, 60_000, () => now);
    expect([throttle.hit('a'), throttle.hit('a')]).toEqual([undefined, undefined]);
    now = 15_000;
    expect(throttle.hit('a')).toBe(45);
    expect(throttle.hit('b')).toBeUndefined();
    now = 60_000;
    expect(throttle.hit('a')).toBeUndefined();
  });

  it('when a TOTP secret is sealed with a key, then it is encrypted and opens only with that key; without a key it is marked plain', () => {
    const box = new TotpSecretBox(Buffer.alloc(32, 1).toString('base64'));
    const sealed = box.seal('JBSWY3DPEHPK3PXP');
    expect(sealed).toMatch(/^v1\./);
    expect(sealed).not.toContain('JBSWY3DPEHPK3PXP');
    expect(box.open(sealed)).toBe('JBSWY3DPEHPK3PXP');
    expect(() => new TotpSecretBox(Buffer.alloc(32, 2).toString('base64')).open(sealed)).toThrow();
    expect(() => new TotpSecretBox(undefined).open(sealed)).toThrow();
    const plain = new TotpSecretBox(undefined);
    expect(plain.open(plain.seal('ABC'))).toBe('ABC');
    expect(() => new TotpSecretBox('c2hvcnQ=')).toThrow(/32 bytes/);
  });

  it('when a code is checked, then it belongs to its 30 s step, one step of drift is allowed, and others are refused', () => {
    const secret = 'JBSWY3DPEHPK3PXP';
    const now = 1_800_000_015_000;
    const step = Math.floor(now / 30_000);
    expect(totpStepOf(secret, totpCodeAt(secret, now), now)).toBe(step);
    expect(totpStepOf(secret, totpCodeAt(secret, now - 30_000), now)).toBe(step - 1);
    expect(totpStepOf(secret, totpCodeAt(secret, now - 90_000), now)).toBeUndefined();
  });
});
