import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { partnerApiDocument, ROUTES } from '@platform/contracts';

/** Where the client's path types live (checked in: the portal and partners build without running this). */
export const GENERATED_TYPES = path.join('libs', 'client', 'src', 'generated', 'openapi.d.ts');

/** The types openapi-typescript makes of the document the gateway serves at /openapi.json. */
export function generateTypes(root: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'client-openapi-'));
  try {
    const json = path.join(dir, 'openapi.json');
    writeFileSync(json, JSON.stringify(partnerApiDocument(ROUTES)));
    const cli = path.join(root, 'node_modules', 'openapi-typescript', 'bin', 'cli.js');
    const run = spawnSync(process.execPath, [cli, json], { cwd: root, encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`openapi-typescript failed: ${run.stderr}`);
    return run.stdout;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// npm run client:generate (from the repository's root)
if (require.main === module) {
  const root = process.cwd();
  writeFileSync(path.join(root, GENERATED_TYPES), generateTypes(root));
  console.log(`wrote ${GENERATED_TYPES}`);
}
