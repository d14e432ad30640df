import { execFileSync } from 'node:child_process';
import { PLATFORM_PROCESSES } from '@platform/config';
import { findHelm } from './helm';
import { validateObjects, type K8sObject } from './k8s-validate';
import { annotations, CHART, Container, envOf, Labels, matches, ofKind, PRODUCTION, render, Workload } from './render';

// The chart rendered by the real helm (see helm.ts), every object checked against the Kubernetes
// types (k8s-validate.ts), and what a rollout relies on asserted object by object.
let helm: string;
beforeAll(async () => {
  helm = await findHelm();
});

describe('the chart', () => {
  let defaults: K8sObject[];
  let production: K8sObject[];
  beforeAll(() => {
    defaults = render(helm);
    production = render(helm, ['-f', PRODUCTION]);
  });

  it('passes helm lint --strict (NOTES.txt included), with default and production-like values', () => {
    for (const args of [[], ['-f', PRODUCTION]]) {
      expect(execFileSync(helm, ['lint', CHART, '--strict', ...args], { encoding: 'utf8' })).toContain(
        '0 chart(s) failed',
      );
    }
  });

  it('renders objects that are valid Kubernetes objects, with default and production-like values', () => {
    expect(ofKind(defaults, 'Deployment')).toHaveLength(8);
    expect(validateObjects([...defaults, ...production])).toEqual([]);
  });

  it('rejects an unknown field at any depth, a missing required one, a wrong type, format or enum value', () => {
    const deployment = ofKind<Workload>(defaults, 'Deployment')[0];
    const broken = (name: string, change: (d: Workload, c: Container) => void) => {
      const d = structuredClone(deployment);
      d.metadata.name = name;
      change(d, d.spec.template.spec.containers[0]);
      return d;
    };
    const problems = validateObjects([
      broken('typo', (d) => Object.assign(d.spec, { replicsa: 3 })),
      broken('nested-typo', (_, c) => Object.assign(c, { readinesProbe: {} })),
      broken('no-selector', (d) => delete d.spec.selector),
      broken('wrong-type', (d) => Object.assign(d.spec, { replicas: 'three' })),
      broken('bad-quantity', (_, c) => Object.assign(c, { resources: { requests: { cpu: 'half' } } })),
      broken('bad-enum', (_, c) => Object.assign(c, { imagePullPolicy: 'Sometimes' })),
    ]);
    const of = (name: string) => problems.filter((p) => p.startsWith(`Deployment/${name}: `)).join('\n');
    expect(of('typo')).toMatch(/'"replicsa"' does not exist in type 'IDeploymentSpec'/);
    expect(of('nested-typo')).toMatch(/'"readinesProbe"' does not exist in type 'IContainer'/);
    expect(of('no-selector')).toMatch(/selector.*is missing/);
    expect(of('wrong-type')).toMatch(/replicas must be integer/);
    expect(of('bad-quantity')).toMatch(/cpu must match format "quantity"/);
    expect(of('bad-enum')).toMatch(/imagePullPolicy must be equal to one of the allowed values/);
  });

  it('refuses values the chart does not know (values.schema.json), before rendering anything', () => {
    expect(() => render(helm, ['--set', 'components.gateway.replica=3'])).toThrow(/replica/);
    expect(() => render(helm, ['--set', 'scannerSeccomp.type=Disabled'])).toThrow(/scannerSeccomp/);
    expect(() => render(helm, ['--set', 'components.domains.role=worker'])).toThrow(/role worker is not one of/);
    expect(() =>
      render(helm, ['--set', 'components.extra.app=search-svc,components.extra.image.repository=x']),
    ).toThrow(/app/);
  });

  it('names the apps, ports and variable prefixes of libs/config (PLATFORM_PROCESSES)', () => {
    const jobs = ofKind<Workload>(defaults, 'Job');
    const deployments = ofKind<Workload>(defaults, 'Deployment');
    for (const { app, prefix, port } of PLATFORM_PROCESSES) {
      const container = deployments
        .map((d) => d.spec.template.spec.containers[0])
        .find((c) => c.name === app && envOf(c, `${prefix}_PORT`));
      expect(envOf(container!, `${prefix}_PORT`)?.value).toBe(String(port));
      expect(envOf(container!, `${prefix}_ADMIN_PORT`)?.value).toBe(String(port + 1000));
      expect(jobs.map((j) => j.metadata.name)).toContain(`rel-platform-migrate-${app}`);
    }
    expect(jobs).toHaveLength(PLATFORM_PROCESSES.length);
  });

  it('probes each deployment on its admin listener, bound to 0.0.0.0', () => {
    for (const d of ofKind<Workload>(defaults, 'Deployment')) {
      const [c] = d.spec.template.spec.containers;
      const adminPort = c.env!.find((e) => e.name.endsWith('_ADMIN_PORT'))!;
      const prefix = adminPort.name.replace(/_ADMIN_PORT$/, '');
      expect(envOf(c, `${prefix}_ADMIN_HOST`)?.value).toBe('0.0.0.0');
      expect(c.ports).toContainEqual({ name: 'admin', containerPort: Number(adminPort.value) });
      expect(c.livenessProbe?.httpGet).toEqual({ path: '/health/live', port: 'admin' });
      expect(c.readinessProbe?.httpGet).toEqual({ path: '/health/ready', port: 'admin' });
    }
  });

  it('gives every deployment a PodDisruptionBudget and a HorizontalPodAutoscaler, each toggled by its values', () => {
    const pdbs = ofKind<K8sObject & { spec: { selector: { matchLabels: Labels } } }>(defaults, 'PodDisruptionBudget');
    const hpas = ofKind<K8sObject & { spec: { scaleTargetRef: { kind: string; name: string } } }>(
      defaults,
      'HorizontalPodAutoscaler',
    );
    for (const d of ofKind<Workload>(defaults, 'Deployment')) {
      const pods = d.spec.template.metadata.labels;
      expect(pdbs.filter((p) => matches(p.spec.selector.matchLabels, pods)).map((p) => p.metadata.name)).toEqual([
        d.metadata.name,
      ]);
      expect(hpas.filter((h) => h.spec.scaleTargetRef.name === d.metadata.name)).toHaveLength(1);
      expect(d.spec.replicas).toBeUndefined(); // the HPA owns the count
    }
    const scanner = ofKind<Workload>(production, 'Deployment').find((d) => d.metadata.name === 'rel-platform-scanner');
    expect(scanner?.spec.replicas).toBe(4);
    const names = (kind: string) => ofKind(production, kind).map((o) => o.metadata.name);
    expect(names('HorizontalPodAutoscaler')).not.toContain('rel-platform-scanner');
    expect(names('PodDisruptionBudget')).not.toContain('rel-platform-webhook-worker');
  });

  it('runs each migrate.js as a pre-install/pre-upgrade hook job, after the Secret with the URLs', () => {
    const secret = ofKind(defaults, 'Secret').find((s) => s.metadata.name === 'rel-platform-external')!;
    expect(annotations(secret)['helm.sh/hook']).toBe('pre-install,pre-upgrade');
    for (const job of ofKind<Workload>(defaults, 'Job')) {
      expect(annotations(job)).toMatchObject({
        'helm.sh/hook': 'pre-install,pre-upgrade',
        'helm.sh/hook-delete-policy': 'before-hook-creation,hook-succeeded',
      });
      expect(Number(annotations(job)['helm.sh/hook-weight'])).toBeGreaterThan(
        Number(annotations(secret)['helm.sh/hook-weight']),
      );
      const [c] = job.spec.template.spec.containers;
      expect(c.command).toEqual(['node', 'migrate.js']);
      expect(envOf(c, 'DATABASE_URL')?.valueFrom?.secretKeyRef).toEqual({
        name: 'rel-platform-external',
        key: 'DATABASE_URL',
      });
    }
    const prodJob = ofKind<Workload>(production, 'Job')[0].spec.template.spec.containers[0];
    expect(envOf(prodJob, 'DATABASE_URL')?.valueFrom?.secretKeyRef).toEqual({
      name: 'platform-external',
      key: 'MIGRATION_DATABASE_URL',
    });
    expect(ofKind(production, 'Secret')).toEqual([]); // both Secrets are the operator's
  });
});
