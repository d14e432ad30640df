import { ConfigError } from '@platform/config';
import { loadConfig } from '../src/config';

describe('gateway configuration', () => {
  it('when only the signing key is given, then the documented defaults apply', () => {
    const config = loadConfig({ INTERNAL_JWT_PRIVATE_KEY: 'line1\\nline2' });
    expect(config).toEqual(
      expect.objectContaining({
        GATEWAY_PORT: 8080,
        GATEWAY_HOST: '127.0.0.1',
        INTERNAL_JWT_PRIVATE_KEY: 'line1\nline2',
        TRUSTED_PROXIES: [],
        RATE_LIMIT_PER_MINUTE: 6000,
        FAIR_SHARE_MAX_IN_FLIGHT: 8,
        FAIR_SHARE_MAX_QUEUED: 256,
        FAIR_SHARE_QUEUE_TIMEOUT_MS: 2000,
        BODY_LIMIT_BYTES: 1024 * 1024,
        BODY_TIMEOUT_MS: 30_000,
        UPSTREAM_TIMEOUT_MS: 5000,
        DOMAINS_URL: 'http://127.0.0.1:8081',
        WEBHOOKS_URL: 'http://127.0.0.1:8085',
        REDIS_KEY_PREFIX: 'platform:',
      }),
    );
    // No Redis unless asked for: every limit is this gateway's own, in memory.
    expect(config.REDIS_URL).toBeUndefined();
  });

  it('when trusted proxies are listed, then addresses, CIDR ranges and proxy names are accepted', () => {
    expect(
      loadConfig({ INTERNAL_JWT_PRIVATE_KEY: 'k', TRUSTED_PROXIES: '127.0.0.1, 10.0.0.0/8,loopback,::1' })
        .TRUSTED_PROXIES,
    ).toEqual(['127.0.0.1', '10.0.0.0/8', 'loopback', '::1']);
  });

  it('when the signing key is missing or a value is invalid, then boot fails naming each variable', () => {
    expect(() => loadConfig({})).toThrow(ConfigError);
    expect(() => loadConfig({})).toThrow(/INTERNAL_JWT_PRIVATE_KEY/);
    expect(() =>
      loadConfig({ INTERNAL_JWT_PRIVATE_KEY: 'k', TRUSTED_PROXIES: 'proxy.example.com', RATE_LIMIT_PER_MINUTE: '0' }),
    ).toThrow(/TRUSTED_PROXIES[\s\S]*RATE_LIMIT_PER_MINUTE|RATE_LIMIT_PER_MINUTE[\s\S]*TRUSTED_PROXIES/);
    expect(() => loadConfig({ INTERNAL_JWT_PRIVATE_KEY: 'k', REDIS_URL: 'not a url' })).toThrow(/REDIS_URL/);
  });
});
