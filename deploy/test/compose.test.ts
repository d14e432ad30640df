import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';

// docker-compose.yml's `scale` profile and the HAProxy config in front of its gateways, checked
// without Docker: compose's file as YAML (with its merge keys), HAProxy's by haproxy -c.
const REPO = path.resolve(__dirname, '../..');
const HAPROXY_CFG = path.join(REPO, 'deploy/haproxy/haproxy.cfg');
interface ComposeService {
  profiles?: string[];
  ports?: string[];
  security_opt?: string[];
  environment?: Record<string, string>;
}
const compose = parse(readFileSync(path.join(REPO, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
  services: Record<string, ComposeService>;
};
const services = Object.entries(compose.services);
const inScale = services.filter(([, s]) => s.profiles?.includes('scale')).map(([name]) => name);

it('leaves plain `docker compose up` as it was: the profile only adds services', () => {
  expect(services.filter(([, s]) => !s.profiles).map(([name]) => name)).toEqual([
    'keys',
    'postgres',
    'rabbitmq',
    'mailpit',
    'gateway',
    'domains-svc',
    'domains-scanner',
    'billing-svc',
    'merchants-svc',
    'consent-svc',
    'webhook-svc',
    'webhook-worker',
  ]);
  expect(inScale.sort()).toEqual(
    ['domains-scanner-2', 'gateway-a', 'gateway-b', 'gateway-c', 'haproxy', 'redis', 'webhook-worker-2'].sort(),
  );
});

it('runs three gateways on Redis behind HAProxy, which checks each on /health/live', () => {
  const gateways = inScale.filter((name) => name.startsWith('gateway-'));
  for (const name of gateways) {
    expect(compose.services[name]).toMatchObject({ ports: [], environment: { REDIS_URL: 'redis://redis:6379' } });
  }
  const cfg = readFileSync(HAPROXY_CFG, 'utf8');
  expect([...cfg.matchAll(/^\s*server (\S+) (\S+):8080$/gm)].map((m) => m[2])).toEqual(gateways);
  expect(cfg).toMatch(/option httpchk GET \/health\/live/);
  expect(execFileSync('haproxy', ['-c', '-f', HAPROXY_CFG], { encoding: 'utf8', stdio: 'pipe' })).toContain(
    'Configuration file is valid',
  );
});

it('runs every scanner under the Chromium seccomp profile and two of each worker role', () => {
  for (const name of ['domains-scanner', 'domains-scanner-2']) {
    expect(compose.services[name].security_opt).toEqual(['seccomp=deploy/seccomp/chromium.json']);
    expect(compose.services[name].environment?.DOMAINS_ROLE).toBe('scanner');
  }
  for (const name of ['webhook-worker', 'webhook-worker-2']) {
    expect(compose.services[name].environment?.WEBHOOK_ROLE).toBe('worker');
  }
});
