import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { helmTemplate } from './helm';
import type { K8sObject } from './k8s-validate';

// What the chart tests read from rendered objects.
export interface Container {
  name: string;
  command?: string[];
  env?: { name: string; value?: string; valueFrom?: { secretKeyRef: { name: string; key: string } } }[];
  ports?: { name: string; containerPort: number }[];
  livenessProbe?: { httpGet: { path: string; port: string } };
  readinessProbe?: { httpGet: { path: string; port: string } };
  securityContext?: { readOnlyRootFilesystem?: boolean; allowPrivilegeEscalation?: boolean };
}
export interface PodSpec {
  containers: Container[];
  automountServiceAccountToken?: boolean;
  securityContext?: { runAsNonRoot?: boolean; runAsUser?: number; seccompProfile?: Record<string, string> };
}
export type Labels = Record<string, string>;
export interface Workload extends K8sObject {
  spec: {
    replicas?: number;
    selector?: { matchLabels: Labels };
    template: { metadata: { labels: Labels; annotations?: Labels }; spec: PodSpec };
  };
}

export const CHART = path.resolve(__dirname, '../helm/platform');
export const PRODUCTION = path.join(__dirname, 'production-values.yaml');

/** The chart's objects as `helm template` renders them with these arguments. */
export function render(helm: string, args: string[] = []): K8sObject[] {
  return parseAllDocuments(helmTemplate(helm, CHART, args))
    .map((doc) => doc.toJSON() as K8sObject | null)
    .filter((o): o is K8sObject => o !== null);
}

export const ofKind = <T extends K8sObject = K8sObject>(objects: K8sObject[], kind: string) =>
  objects.filter((o) => o.kind === kind) as T[];
export const envOf = (c: Container, name: string) => c.env?.find((e) => e.name === name);
export const matches = (selector: Labels, labels: Labels) =>
  Object.entries(selector).every(([k, v]) => labels[k] === v);
export const annotations = (o: K8sObject) => (o.metadata.annotations ?? {}) as Record<string, string>;
