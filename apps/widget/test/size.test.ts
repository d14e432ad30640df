// The widget's budget (the promise to site owners): loader <= 2 KB and bundle <= 25 KB,
// both gzipped, measured on the built files the gateway serves; each onboarding widget <= 8 KB.
// Language packs are outside those budgets (fetched only for a visitor in that language): each <= 6 KB.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { DIST } from './support/fake-platform';

const gzipped = (file: string) => gzipSync(readFileSync(path.join(DIST, file)), { level: 9 }).length;
const manifest = () =>
  JSON.parse(readFileSync(path.join(DIST, 'manifest.json'), 'utf8')) as {
    widget: string;
    lang: Record<string, string>;
  };
const LANGUAGE_PACKS = ['ar', 'cs', 'da', 'de', 'el', 'es', 'fi', 'fr', 'he', 'it', 'nl', 'pl', 'pt', 'ro', 'sv'];

describe('the built widget', () => {
  it('names its content-hashed bundle in manifest.json, and the loader carries the placeholder the gateway fills', () => {
    const { widget } = manifest();
    expect(widget).toMatch(/^widget\.[A-Z0-9]{8}\.js$/);
    expect(readdirSync(DIST)).toContain(widget);
    expect(readFileSync(path.join(DIST, 'loader.js'), 'utf8')).toContain('/widget/v1/assets/__WIDGET_BUNDLE__');
  });

  it('keeps the loader within 2 KB gzipped', () => {
    expect(gzipped('loader.js')).toBeLessThanOrEqual(2048);
  });

  it('keeps the whole widget bundle within 25 KB gzipped', () => {
    expect(gzipped(manifest().widget)).toBeLessThanOrEqual(25 * 1024);
  });

  it('lists one content-hashed pack per language but English (built into the bundle), which names them all', () => {
    const { lang, widget } = manifest();
    expect(Object.keys(lang).sort()).toEqual(LANGUAGE_PACKS);
    const bundle = readFileSync(path.join(DIST, widget), 'utf8');
    for (const [code, file] of Object.entries(lang)) {
      expect(file).toMatch(new RegExp(`^lang-${code}\\.[A-F0-9]{8}\\.js$`));
      expect(readdirSync(DIST)).toContain(file);
      expect(bundle).toContain(file);
    }
  });

  it.each(LANGUAGE_PACKS)('keeps the %s language pack within 6 KB gzipped', (code) => {
    const size = gzipped(manifest().lang[code]);
    process.stdout.write(`language pack ${code}: ${size} bytes gzipped\n`);
    expect(size).toBeLessThanOrEqual(6 * 1024);
  });

  it.each(['registration', 'scan'])('keeps the %s onboarding widget within 8 KB gzipped', (widget) => {
    expect(gzipped(`onboarding/${widget}.js`)).toBeLessThanOrEqual(8 * 1024);
  });
});
