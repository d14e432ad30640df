import { execFileSync } from 'node:child_process';
import path from 'node:path';
import ts from 'typescript';
import { nodeModulesWith } from './modules';

/**
 * Validates Kubernetes objects offline against kubernetes-models, which is generated from the
 * Kubernetes OpenAPI, twice:
 * - its types: each object becomes a typed object literal that TypeScript checks, so a missing
 *   required field, a wrong type and (by the excess-property check) an unknown field at any depth
 *   are errors (the OpenAPI's schemas leave unknown fields open, the API server's strict field
 *   validation does not);
 * - its JSON schemas (validate(), ajv): formats and enums, e.g. a quantity "half" or an
 *   imagePullPolicy "Sometimes".
 * No cluster, no network.
 */
export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; [key: string]: unknown };
  [key: string]: unknown;
}

/** The kinds the chart renders: apiVersion/kind -> module in kubernetes-models (class <Kind>, interface I<Kind>). */
const MODELS: Record<string, string> = {
  'apps/v1/Deployment': 'apps/v1/Deployment',
  'v1/Service': 'v1/Service',
  'v1/Secret': 'v1/Secret',
  'networking.k8s.io/v1/Ingress': 'networking.k8s.io/v1/Ingress',
  'batch/v1/Job': 'batch/v1/Job',
  'policy/v1/PodDisruptionBudget': 'policy/v1/PodDisruptionBudget',
  'autoscaling/v2/HorizontalPodAutoscaler': 'autoscaling/v2/HorizontalPodAutoscaler',
};

function modelsRoot(): string {
  const found = nodeModulesWith('kubernetes-models');
  if (!found) throw new Error('kubernetes-models is not installed (devDependency kubernetes-models@5)');
  return path.join(found, 'kubernetes-models');
}

const keyOf = (o: K8sObject) => `${o.apiVersion}/${o.kind}`;
const nameOf = (o: K8sObject) => `${o.kind}/${o.metadata?.name}`;

/** Every problem found, as "<kind>/<name>: <message>"; empty when all objects are valid. */
export function validateObjects(objects: K8sObject[]): string[] {
  const unknown = objects.filter((o) => !MODELS[keyOf(o)]).map((o) => `${nameOf(o)}: no schema for ${keyOf(o)}`);
  const known = objects.filter((o) => MODELS[keyOf(o)]);
  return [...unknown, ...typeProblems(known), ...schemaProblems(known)];
}

function typeProblems(objects: K8sObject[]): string[] {
  const root = modelsRoot();
  const kinds = [...new Set(objects.map(keyOf))];
  const head = kinds.map((k, i) => `import type { I${k.split('/').pop()} as T${i} } from '${root}/${MODELS[k]}';`);
  const lines: string[] = [];
  const starts = objects.map((o, i) => {
    const start = lines.length;
    lines.push(...`export const o${i}: T${kinds.indexOf(keyOf(o))} = ${JSON.stringify(o, null, 2)};`.split('\n'));
    return start;
  });
  const objectAt = (line: number) => objects[starts.filter((s) => s <= line - head.length).length - 1];
  return typeCheck([...head, ...lines].join('\n'), root).map((d) => {
    const message = ts.flattenDiagnosticMessageText(d.messageText, '\n');
    const at = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line : -1;
    const o = objectAt(at);
    return `${o ? nameOf(o) : 'rendered objects'}: ${message}`;
  });
}

function typeCheck(source: string, root: string): ts.Diagnostic[] {
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

/** kubernetes-models' validate() on each object, in a Node process of its own (the package is ES modules only). */
function schemaProblems(objects: K8sObject[]): string[] {
  const script = `
    import { readFileSync } from 'node:fs';
    const { root, objects } = JSON.parse(readFileSync(0, 'utf8'));
    const problems = [];
    for (const { module, object } of objects) {
      const Model = (await import(root + '/' + module + '.js'))[object.kind];
      try { new Model(object).validate(); } catch (err) { problems.push(object.kind + '/' + object.metadata?.name + ': ' + err.message); }
    }
    process.stdout.write(JSON.stringify(problems));`;
  const input = { root: modelsRoot(), objects: objects.map((object) => ({ module: MODELS[keyOf(object)], object })) };
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    input: JSON.stringify(input),
    encoding: 'utf8',
  });
  return JSON.parse(out) as string[];
}
