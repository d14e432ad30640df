// Bundles one project's entry points into dist/<projectRoot>/ (its deployable output).
// Usage: node tools/build.mjs <projectRoot> <entry.ts> [<entry.ts> ...]
// Third-party packages stay external: a deployment runs `npm ci --omit=dev` next to the bundle.
import { build } from 'esbuild';
import path from 'node:path';

const [root, ...entries] = process.argv.slice(2);
if (!root || entries.length === 0) {
  console.error('usage: node tools/build.mjs <projectRoot> <entry.ts>...');
  process.exit(2);
}
await build({
  entryPoints: entries.map((e) => path.join(root, e)),
  outdir: path.join('dist', root),
  bundle: true,
  platform: 'node',
  target: 'node24',
  format: 'cjs',
  packages: 'external',
  sourcemap: true,
  tsconfig: 'tsconfig.base.json',
  logLevel: 'warning',
});
