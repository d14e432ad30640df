// The widget's budget (the promise to site owners): loader <= 2 KB and bundle <= 25 KB,
// both gzipped, measured on the built files the gateway serves; each onboarding widget <= 8 KB.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { DIST } from './support/fake-platform';

const gzipped = (file: string) => gzipSync(readFileSync(path.join(DIST, file)), { level: 9 }).length;
const manifest = () => JSON.parse(readFileSync(path.join(DIST, 'manifest.json'), 'utf8')) as { widget: string };

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

  it.each(['registration', 'scan'])('keeps the %s onboarding widget within 8 KB gzipped', (widget) => {
    expect(gzipped(`onboarding/${widget}.js`)).toBeLessThanOrEqual(8 * 1024);
  });
});
