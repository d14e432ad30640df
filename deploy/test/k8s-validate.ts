import path from 'node:path';
import ts from 'typescript';
import { nodeModulesWith } from './modules';

/**
 * Validates Kubernetes objects offline against the types kubernetes-models generates from the
 * Kubernetes OpenAPI: each object becomes a typed object literal and TypeScript checks it, so a
 * missing required field, a wrong type and (by the excess-property check) an unknown field at any
 * depth are all errors. No cluster, no network.
 */
export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; [key: string]: unknown };
  [key: string]: unknown;
}

/** The kinds the chart renders: apiVersion/kind -> kubernetes-models module and interface. */
const MODELS: Record<string, [string, string]> = {
  'apps/v1/Deployment': ['kubernetes-models/apps/v1/Deployment', 'IDeployment'],
  'v1/Service': ['kubernetes-models/v1/Service', 'IService'],
  'v1/Secret': ['kubernetes-models/v1/Secret', 'ISecret'],
  'networking.k8s.io/v1/Ingress': ['kubernetes-models/networking.k8s.io/v1/Ingress', 'IIngress'],
  'batch/v1/Job': ['kubernetes-models/batch/v1/Job', 'IJob'],
  'policy/v1/PodDisruptionBudget': ['kubernetes-models/policy/v1/PodDisruptionBudget', 'IPodDisruptionBudget'],
  'autoscaling/v2/HorizontalPodAutoscaler': [
    'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler',
    'IHorizontalPodAutoscaler',
  ],
};

function modelsRoot(): string {
  const found = nodeModulesWith('kubernetes-models');
  if (!found) throw new Error('kubernetes-models is not installed (devDependency kubernetes-models@5)');
  return found;
}

const keyOf = (o: K8sObject) => `${o.apiVersion}/${o.kind}`;

/** Every problem found, as "<kind>/<name>: <message>"; empty when all objects are valid. */
export function validateObjects(objects: K8sObject[]): string[] {
  const problems: string[] = [];
  const lines: string[] = [];
  const declared: { start: number; object: K8sObject }[] = [];
  const imports = new Map<string, string>();
  objects.forEach((o, i) => {
    const model = MODELS[keyOf(o)];
    if (!model) {
      problems.push(`${o.kind}/${o.metadata?.name}: no schema for ${keyOf(o)}`);
      return;
    }
    imports.set(model[1], model[0]);
    declared.push({ start: lines.length, object: o });
    lines.push(...`export const o${i}: ${model[1]} = ${JSON.stringify(o, null, 2)};`.split('\n'));
  });
  const head = [...imports].map(([type, from]) => `import type { ${type} } from '${from}';`);
  const source = [...head, ...lines].join('\n');
  const objectAt = (line: number) => [...declared].reverse().find((d) => d.start <= line - head.length)?.object;
  for (const d of typeCheck(source)) {
    const message = ts.flattenDiagnosticMessageText(d.messageText, '\n');
    const o =
      d.file && d.start !== undefined ? objectAt(d.file.getLineAndCharacterOfPosition(d.start).line) : undefined;
    problems.push(`${o ? `${o.kind}/${o.metadata?.name}` : 'rendered objects'}: ${message}`);
  }
  return problems;
}

function typeCheck(source: string): readonly ts.Diagnostic[] {
  const root = modelsRoot();
  const file = path.join(root, '..', '__rendered_objects__.ts');
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
    lib: ['lib.es2022.d.ts'],
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    paths: { 'kubernetes-models/*': [path.join(root, 'kubernetes-models/*')] },
  };
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  host.fileExists = (f) => f === file || fileExists.call(host, f);
  host.readFile = (f) => (f === file ? source : readFile.call(host, f));
  host.getSourceFile = (f, lang, ...rest) =>
    f === file ? ts.createSourceFile(f, source, lang) : getSourceFile.call(host, f, lang, ...rest);
  const program = ts.createProgram([file], options, host);
  return [...program.getSyntacticDiagnostics(), ...program.getSemanticDiagnostics()];
}
