// Builds the browser widget into dist/apps/widget/: loader.js (the snippet's script, a stable name the
// gateway serves with a short cache), widget.<hash>.js (immutable, content-hashed) and manifest.json
// ({"widget": "<file>"}) so the gateway can put the bundle's name into the loader's __WIDGET_BUNDLE__;
// and onboarding/<widget>.js, the partners' registration and scan widgets.
import { build } from 'esbuild';
import { mkdirSync, rmSync, writeFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

const outdir = path.join('dist', 'apps', 'widget');
rmSync(outdir, { recursive: true, force: true });
mkdirSync(outdir, { recursive: true });
const common = {
  bundle: true,
  platform: 'browser',
  target: ['es2019'],
  format: 'iife',
  minify: true,
  legalComments: 'none',
  tsconfig: 'apps/widget/tsconfig.json',
  logLevel: 'warning',
};
await build({ ...common, entryPoints: ['apps/widget/src/loader.ts'], outfile: path.join(outdir, 'loader.js') });
await build({
  ...common,
  entryPoints: { widget: 'apps/widget/src/widget/main.ts' },
  outdir,
  entryNames: '[name].[hash]',
});
// The onboarding widgets (registration, scan): stable names the gateway serves at /widget/v1/onboarding/.
await build({
  ...common,
  entryPoints: ['apps/widget/src/onboarding/registration.ts', 'apps/widget/src/onboarding/scan.ts'],
  outdir: path.join(outdir, 'onboarding'),
});
const bundle = readdirSync(outdir).find((f) => /^widget\.[A-Z0-9]+\.js$/.test(f));
if (!bundle) throw new Error('widget bundle missing from ' + outdir);
writeFileSync(path.join(outdir, 'manifest.json'), JSON.stringify({ widget: bundle }) + '\n');
