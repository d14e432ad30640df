// The portal's budget (issue 26): the JavaScript of the first load, everything index.html loads
// before any screen's own chunk, is at most 200 KB gzipped, measured on the built files.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { DIST } from './support/fake-api';

const BUDGET = 200 * 1024;

/** The scripts index.html names (the entry and its modulepreloads): what a first visit downloads. */
function firstLoadScripts(): string[] {
  const html = readFileSync(path.join(DIST, 'index.html'), 'utf8');
  return [...html.matchAll(/(?:src|href)="\/app\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]);
}

describe('the built portal', () => {
  it('loads its entry script and preloads from hashed, immutable-cacheable names under /app/assets/', () => {
    const scripts = firstLoadScripts();
    expect(scripts.length).toBeGreaterThan(0);
    for (const file of scripts) expect(file).toMatch(/^assets\/[\w.-]+-[\w-]{8}\.js$/);
  });

  it('has no inline script in index.html (the CSP allows none)', () => {
    const html = readFileSync(path.join(DIST, 'index.html'), 'utf8');
    expect([...html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1].trim()).filter(Boolean)).toEqual(
      [],
    );
  });

  it('keeps the first load within 200 KB of gzipped JavaScript', () => {
    const total = firstLoadScripts().reduce(
      (sum, file) => sum + gzipSync(readFileSync(path.join(DIST, file)), { level: 9 }).length,
      0,
    );
    expect(total).toBeLessThanOrEqual(BUDGET);
  });
});
