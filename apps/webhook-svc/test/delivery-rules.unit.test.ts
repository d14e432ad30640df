import { Webhook } from 'standardwebhooks';
import { nextDelayMs, retryAfterMs } from '../src/domain/retry-schedule';
import { newSigningSecret, SecretBox, signatureHeader } from '../src/domain/secrets';

const SCHEDULE = [0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];

describe('retry schedule', () => {
  it('when attempts fail, then the next one waits the step of the schedule within ±20%, and none follows the last', () => {
    const low = { scheduleMs: SCHEDULE, jitter: 0.2, random: () => 0 };
    const high = { ...low, random: () => 0.999999 };
    expect(nextDelayMs(low, 1)).toBe(4_000);
    expect(nextDelayMs(high, 1)).toBe(6_000);
    expect(nextDelayMs(low, 7)).toBe(28_800_000);
    expect(nextDelayMs(low, 8)).toBeUndefined();
  });

  it('when the endpoint sent Retry-After, then it is a minimum, capped at the longest step', () => {
    const policy = { scheduleMs: SCHEDULE, jitter: 0, random: () => 0.5 };
    expect(nextDelayMs(policy, 1, 60_000)).toBe(60_000);
    expect(nextDelayMs(policy, 1, 1_000)).toBe(5_000);
    expect(nextDelayMs(policy, 1, 365 * 86_400_000)).toBe(36_000_000);
    expect(retryAfterMs('120')).toBe(120_000);
    expect(retryAfterMs(new Date(Date.now() + 30_000).toUTCString())).toBeGreaterThan(25_000);
    expect(retryAfterMs('soon')).toBeUndefined();
    expect(retryAfterMs(undefined)).toBeUndefined();
  });
});

describe('secrets and signatures', () => {
  it('when a secret is sealed, then only the same key opens it, and the stored text does not contain it', () => {
    const key = Buffer.alloc(32, 7).toString('base64');
    const box = new SecretBox(key);
    const secret = newSigningSecret();
    const sealed = box.seal(secret);
    expect(sealed).not.toContain(secret.slice(6));
    expect(box.open(sealed)).toBe(secret);
    expect(() => new SecretBox(Buffer.alloc(32, 8).toString('base64')).open(sealed)).toThrow();
    expect(() => new SecretBox('c2hvcnQ=')).toThrow(/32 bytes/);
  });

  it('when a body is signed with two secrets, then standardwebhooks verifies it with either one, and not with a third', () => {
    const [a, b, c] = [newSigningSecret(), newSigningSecret(), newSigningSecret()];
    const body = JSON.stringify({ event: 'domain.deleted', params: { id: 'é' } });
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = {
      'webhook-id': 'msg_1',
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signatureHeader([a, b], 'msg_1', timestamp, body),
    };
    expect(new Webhook(a).verify(body, headers)).toEqual(JSON.parse(body));
    expect(new Webhook(b).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(c).verify(body, headers)).toThrow();
    expect(headers['webhook-signature']).toBe(
      `${new Webhook(a).sign('msg_1', new Date(timestamp * 1000), body)} ${new Webhook(b).sign('msg_1', new Date(timestamp * 1000), body)}`,
    );
  });
});
