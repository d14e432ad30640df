import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { findHelm, helmTemplate } from './helm';
import { validateObjects, type K8sObject } from './k8s-validate';
import { annotations, CHART, envOf, matches, ofKind, PRODUCTION, render, Workload } from './render';

// How the rendered objects fit together: the services' addresses, the keys, the pods' security.
let helm: string;
let defaults: K8sObject[];
beforeAll(async () => {
  helm = await findHelm();
  defaults = render(helm);
});

type IngressRule = { http: { paths: { backend: { service: object } }[] } };
type ServiceObject = K8sObject & { spec: { selector: Record<string, string>; ports: { port: number }[] } };
const deployments = (objects: K8sObject[]) => ofKind<Workload>(objects, 'Deployment');
const byName = (objects: K8sObject[], name: string) => deployments(objects).find((d) => d.metadata.name === name)!;

/** Key files as docker-compose's `keys` service writes them, passed with --set-file. */
function keyArgs(dir: string): string[] {
  const pair = () => {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    return [privateKey.export({ type: 'pkcs8', format: 'pem' }), publicKey.export({ type: 'spki', format: 'pem' })];
  };
  const [internalPrivate, internalPublic] = pair();
  const [servicePrivate, servicePublic] = pair();
  const jwk = generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' });
  const files: Record<string, string | Buffer> = {
    internalJwtPrivateKey: internalPrivate,
    internalJwtPublicKey: internalPublic,
    serviceJwtPrivateKey: servicePrivate,
    serviceJwtPublicKey: servicePublic,
    webhookSecretKey: randomBytes(32).toString('base64'),
    recordSigningKeys: JSON.stringify({ keys: [{ ...jwk, kid: 'rec-test', alg: 'EdDSA', use: 'sig' }] }),
  };
  return Object.entries(files).flatMap(([key, content]) => {
    writeFileSync(path.join(dir, key), content);
    return ['--set-file', `keys.${key}=${path.join(dir, key)}`];
  });
}

it('points every <SERVICE>_URL at a Service in front of that app api role, on its port', () => {
  const services = ofKind<ServiceObject>(defaults, 'Service');
  expect(services.map((s) => s.metadata.name).sort()).toEqual(
    ['billing-svc', 'consent-svc', 'domains-svc', 'gateway', 'merchants-svc', 'webhook-svc'].map(
      (a) => `rel-platform-${a}`,
    ),
  );
  for (const d of deployments(defaults)) {
    for (const e of d.spec.template.spec.containers[0].env!.filter((v) => v.name.endsWith('_URL') && v.value)) {
      if (['WIDGET_BASE_URL', 'PORTAL_URL'].includes(e.name)) continue;
      const url = new URL(e.value!);
      const service = services.find((s) => s.metadata.name === url.hostname);
      expect(service?.spec.ports[0].port).toBe(Number(url.port));
      const [target] = deployments(defaults).filter((t) =>
        matches(service!.spec.selector, t.spec.template.metadata.labels),
      );
      const role = target.spec.template.spec.containers[0].env!.find((v) => v.name.endsWith('_ROLE'));
      expect([undefined, 'api']).toContain(role?.value);
    }
  }
  expect(
    envOf(byName(defaults, 'rel-platform-webhook-worker').spec.template.spec.containers[0], 'WEBHOOK_ROLE')?.value,
  ).toBe('worker');
  expect(envOf(byName(defaults, 'rel-platform-scanner').spec.template.spec.containers[0], 'DOMAINS_ROLE')?.value).toBe(
    'scanner',
  );
});

it('gives each app the keys it reads and no other, from the keys Secret', () => {
  const keysOf = (name: string) =>
    byName(defaults, name)
      .spec.template.spec.containers[0].env!.filter((e) => e.valueFrom?.secretKeyRef.name === 'rel-platform-keys')
      .map((e) => e.name);
  expect(keysOf('rel-platform-gateway')).toEqual(['INTERNAL_JWT_PRIVATE_KEY', 'TOTP_ENCRYPTION_KEY']);
  const service = ['INTERNAL_JWT_PUBLIC_KEY', 'SERVICE_JWT_PUBLIC_KEY', 'SERVICE_JWT_PRIVATE_KEY'];
  expect(keysOf('rel-platform-billing')).toEqual(service);
  expect(keysOf('rel-platform-consent')).toEqual([...service, 'RECORD_SIGNING_KEYS']);
  expect(keysOf('rel-platform-webhook-worker')).toEqual([...service, 'WEBHOOK_SECRET_KEY']);
});

it('makes the keys Secret from values when asked, kept on uninstall, and refuses a missing key', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'chart-keys-'));
  try {
    const args = ['--set', 'keys.create=true', ...keyArgs(dir)];
    const objects = render(helm, args);
    const keys = ofKind<K8sObject & { stringData: Record<string, string> }>(objects, 'Secret').find(
      (s) => s.metadata.name === 'rel-platform-keys',
    )!;
    expect(annotations(keys)['helm.sh/resource-policy']).toBe('keep');
    expect(keys.stringData.INTERNAL_JWT_PRIVATE_KEY).toContain('BEGIN PRIVATE KEY');
    expect(validateObjects([keys])).toEqual([]);
    expect(() => helmTemplate(helm, CHART, ['--set', 'keys.create=true'])).toThrow(/keys.internalJwtPrivateKey/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

it('runs every pod as a non-root user on a read-only root filesystem, the scanner under its seccomp profile', () => {
  for (const o of [...deployments(defaults), ...ofKind<Workload>(defaults, 'Job')]) {
    const pod = o.spec.template.spec;
    expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 10001 });
    expect(pod.automountServiceAccountToken).toBe(false);
    expect(pod.containers[0].securityContext).toMatchObject({
      readOnlyRootFilesystem: true,
      allowPrivilegeEscalation: false,
    });
  }
  const seccomp = (objects: K8sObject[], name: string) =>
    byName(objects, name).spec.template.spec.securityContext?.seccompProfile;
  expect(seccomp(defaults, 'rel-platform-scanner')).toEqual({
    type: 'Localhost',
    localhostProfile: 'profiles/chromium.json',
  });
  expect(seccomp(defaults, 'rel-platform-gateway')).toEqual({ type: 'RuntimeDefault' });
  const runtimeDefault = render(helm, ['--set', 'scannerSeccomp.type=RuntimeDefault']);
  expect(seccomp(runtimeDefault, 'rel-platform-scanner')).toEqual({ type: 'RuntimeDefault' });
});

it('takes images, URLs and sizes from production-like values', () => {
  const production = render(helm, ['-f', PRODUCTION]);
  const gateway = byName(production, 'rel-platform-gateway').spec.template.spec.containers[0] as { image?: string };
  expect(gateway.image).toBe('registry.example.com/platform/gateway:2026.11.27');
  const worker = byName(production, 'rel-platform-webhook-worker').spec.template.spec.containers[0];
  expect(envOf(worker, 'WEBHOOK_CONCURRENCY')?.value).toBe('512');
  expect(envOf(worker, 'TRUSTED_PROXIES')?.value).toBe('10.0.0.0/8');
  expect(envOf(worker, 'REDIS_URL')?.valueFrom?.secretKeyRef).toMatchObject({
    name: 'platform-external',
    key: 'REDIS_URL',
  });
  expect(envOf(worker, 'AMQP_URL')?.valueFrom?.secretKeyRef).toEqual({ name: 'platform-external', key: 'AMQP_URL' });
  const [ingress] = ofKind<K8sObject & { spec: { rules: IngressRule[] } }>(production, 'Ingress');
  expect(ingress.spec.rules[0].http.paths[0].backend.service).toEqual({
    name: 'rel-platform-gateway',
    port: { name: 'http' },
  });
  expect(ofKind(defaults, 'Ingress')).toEqual([]);
  const scanner = byName(production, 'rel-platform-scanner').spec.template.spec as { nodeSelector?: object };
  expect(scanner.nodeSelector).toEqual({ workload: 'scanners' });
  expect(byName(defaults, 'rel-platform-billing').spec.template.metadata.annotations).toMatchObject({
    'prometheus.io/port': '9082',
  });
});
