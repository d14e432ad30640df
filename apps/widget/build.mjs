// Builds the browser widget into dist/apps/widget/: loader.js (the snippet's script, a stable name the
// gateway serves with a short cache), widget.<hash>.js (immutable, content-hashed), one language pack
// per language but English (lang-<language>.<hash>.js, immutable; English is in the bundle) and
// manifest.json ({"widget": "<file>", "lang": {"<language>": "<file>"}}) so the gateway can put the
// bundle's name into the loader's __WIDGET_BUNDLE__; and onboarding/<widget>.js, the partners'
// registration and scan widgets.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
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
// The language packs first: the bundle carries their hashed names (__LANG_PACKS__), so a changed
// text gives a new pack name and a new bundle name. A pack hands its texts to the bundle.
const TEXTS = 'libs/contracts/src/widget/texts';
const languages = readdirSync(TEXTS)
  .map((f) => /^([a-z]{2})\.ts$/.exec(f)?.[1])
  .filter((l) => l && l !== 'en')
  .sort();
const packs = {};
for (const lang of languages) {
  const { outputFiles } = await build({
    ...common,
    stdin: {
      contents: `import { ${lang} as t } from './${lang}'; const p = window.PrivacyWidget; if (p && p._ && p._.pack) p._.pack('${lang}', t);`,
      resolveDir: TEXTS,
      loader: 'ts',
    },
    write: false,
  });
  const code = outputFiles[0].contents;
  const hash = createHash('sha256').update(code).digest('hex').slice(0, 8).toUpperCase();
  packs[lang] = `lang-${lang}.${hash}.js`;
  writeFileSync(path.join(outdir, packs[lang]), code);
}
await build({
  ...common,
  entryPoints: { widget: 'apps/widget/src/widget/main.ts' },
  outdir,
  entryNames: '[name].[hash]',
  define: { __LANG_PACKS__: JSON.stringify(packs) },
});
// The onboarding widgets (registration, scan): stable names the gateway serves at /widget/v1/onboarding/.
await build({
  ...common,
  entryPoints: ['apps/widget/src/onboarding/registration.ts', 'apps/widget/src/onboarding/scan.ts'],
  outdir: path.join(outdir, 'onboarding'),
});
const bundle = readdirSync(outdir).find((f) => /^widget\.[A-Z0-9]+\.js$/.test(f));
if (!bundle) throw new Error('widget bundle missing from ' + outdir);
writeFileSync(path.join(outdir, 'manifest.json'), JSON.stringify({ widget: bundle, lang: packs }) + '\n');
