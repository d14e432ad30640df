import { readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import Module from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { bootLogAt } from './boots';

type Resolve = (request: string, ...rest: unknown[]) => string;
const loader = Module as unknown as { _resolveFilename: Resolve };

/**
 * Jest loads globalSetup outside its module system, where moduleNameMapper does not apply: map
 * @platform/* to the libs' sources here the way jest.preset.js does for the tests.
 */
function mapPlatformImports(): void {
  const root = path.resolve(__dirname, '../../../..');
  const { paths } = (
    JSON.parse(readFileSync(path.join(root, 'tsconfig.base.json'), 'utf8')) as {
      compilerOptions: { paths: Record<string, string[]> };
    }
  ).compilerOptions;
  const resolve = loader._resolveFilename;
  loader._resolveFilename = function (this: unknown, request, ...rest) {
    const target = paths[request]?.[0];
    return resolve.call(this, target ? path.join(root, target) : request, ...rest);
  };
}

/** One platform for every suite that does not need its own (see shared-platform.ts); globalTeardown ends it. */
export default async function globalSetup(): Promise<void> {
  mapPlatformImports();
  bootLogAt(path.join(await mkdtemp(path.join(os.tmpdir(), 'e2e-boots-')), 'boots.log'));
  const { startSharedPlatform } = await import('./shared-platform');
  (globalThis as { endSharedPlatform?: () => Promise<void> }).endSharedPlatform = await startSharedPlatform();
}
