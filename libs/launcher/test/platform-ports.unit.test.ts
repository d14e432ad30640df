import { parseEnv, serviceUrl, serviceUrlsEnv } from '@platform/config';
import { z } from 'zod';
import { platformPorts } from '../src/processes';

describe('the platform ports table (npm start, the services, the gateway)', () => {
  it('when no port variable is set, then npm start claims 8080-8085 and the admin ports 9080-9085, each named by its variable', () => {
    const claims = platformPorts({});
    expect(claims.map((c) => [c.owner, c.env, c.port])).toEqual([
      ['gateway', 'GATEWAY_PORT', 8080],
      ['domains-svc', 'DOMAINS_PORT', 8081],
      ['billing-svc', 'BILLING_PORT', 8082],
      ['merchants-svc', 'MERCHANTS_PORT', 8083],
      ['consent-svc', 'CONSENT_PORT', 8084],
      ['webhook-svc', 'WEBHOOKS_PORT', 8085],
      ['gateway admin', 'GATEWAY_ADMIN_PORT', 9080],
      ['domains-svc admin', 'DOMAINS_ADMIN_PORT', 9081],
      ['billing-svc admin', 'BILLING_ADMIN_PORT', 9082],
      ['merchants-svc admin', 'MERCHANTS_ADMIN_PORT', 9083],
      ['consent-svc admin', 'CONSENT_ADMIN_PORT', 9084],
      ['webhook-svc admin', 'WEBHOOKS_ADMIN_PORT', 9085],
    ]);
  });

  it('when a port variable is set, then that process is claimed on it and the others keep their defaults', () => {
    const claims = platformPorts({ CONSENT_PORT: '18084', GATEWAY_ADMIN_PORT: '19080' });
    expect(claims.find((c) => c.env === 'CONSENT_PORT')?.port).toBe(18084);
    expect(claims.find((c) => c.env === 'GATEWAY_ADMIN_PORT')?.port).toBe(19080);
    expect(claims.find((c) => c.env === 'GATEWAY_PORT')?.port).toBe(8080);
  });

  it('when no URL variable is set, then each service is called at its default port on loopback; a set one wins', () => {
    const config = parseEnv(z.object(serviceUrlsEnv), { BILLING_URL: 'http://billing.internal:80' });
    expect(serviceUrl(config, 'domains')).toBe('http://127.0.0.1:8081');
    expect(serviceUrl(config, 'billing')).toBe('http://billing.internal:80');
    expect(serviceUrl(config, 'webhooks')).toBe('http://127.0.0.1:8085');
  });
});
