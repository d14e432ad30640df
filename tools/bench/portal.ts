import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Scenario } from './load';

/** The portal's first-load budget (issue 26): its JavaScript gzipped. */
const FIRST_LOAD_BUDGET = 200 * 1024;

/**
 * The JavaScript a first visit of the portal loads: the entry script and the modules index.html
 * preloads, gzipped at level 9 (what a browser downloads before the first screen).
 */
export function printPortalFirstLoad(distDir: string): void {
  const dir = path.join(distDir, 'apps', 'portal');
  const indexFile = path.join(dir, 'index.html');
  if (!existsSync(indexFile)) return void console.log('\nportal: not built (npm run build)');
  const html = readFileSync(indexFile, 'utf8');
  const scripts = [
    ...html.matchAll(/<script[^>]*\ssrc="([^"]+\.js)"/g),
    ...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+\.js)"/g),
  ].map((m) => m[1]);
  const files = [...new Set(scripts)].map((src) => path.join(dir, src.replace(/^\/app\//, '')));
  const bytes = files.reduce((sum, file) => sum + gzipSync(readFileSync(file), { level: 9 }).length, 0);
  console.log('\n| portal first load (gzip -9) | bytes | budget |\n|---|---|---|');
  console.log(
    `| ${files.length} script(s) | ${bytes.toLocaleString('en')} | ${FIRST_LOAD_BUDGET.toLocaleString('en')} ${bytes <= FIRST_LOAD_BUDGET ? 'PASS' : 'FAIL'} |`,
  );
}

/** The domains screen's row, and the same call with an API key at the same load (the session's cost is the difference). */
export const PORTAL_SCREEN_ROW = 'portal domains screen (session, 100k domains, 4 conn.)';
export const PORTAL_SCREEN_KEY_ROW = 'portal domains screen, the same call with a key (100k domains, 4 conn.)';

/**
 * The domains screen's API call as the portal makes it: a signed-in user's session cookie (no API
 * key), the first page of 20 of a partner with 100,000 domains; beside it, the same call with that
 * partner's API key. The user signs in as a partner's administrator would: an operator's invitation
 * link, whose token opens a session.
 */
export async function portalScenarios(
  gateway: string,
  key: string,
  invite: () => Promise<{ sign_in_url: string }>,
): Promise<Scenario[]> {
  const { sign_in_url } = await invite();
  const token = new URL(sign_in_url).hash.replace(/^#token=/, '');
  const res = await fetch(`${gateway}/portal/auth/sessions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token }),
  });
  const cookie = res.headers.get('set-cookie')?.split(';')[0];
  if (res.status !== 201 || !cookie) throw new Error(`bench: portal sign-in answered ${res.status}`);
  const screen = { connections: 4, url: gateway, paths: ['/portal/domains?limit=20'] };
  return [
    { ...screen, name: PORTAL_SCREEN_KEY_ROW, headers: { authorization: `Bearer ${key}` } },
    { ...screen, name: PORTAL_SCREEN_ROW, headers: { cookie } },
  ];
}

/** The screen's p99 against the same call with a key (same load) and against the list row (issue 26: within 20%). */
export function printPortalScreen(byName: Map<string, { p99: number }>): void {
  const screen = byName.get(PORTAL_SCREEN_ROW);
  if (!screen) return;
  for (const [label, row] of [
    ['the same call with an API key', byName.get(PORTAL_SCREEN_KEY_ROW)],
    ["the list row's", byName.get('gateway list limit=10')],
  ] as const) {
    if (!row) continue;
    const verdict = screen.p99 <= row.p99 * 1.2 ? 'PASS' : 'FAIL';
    console.log(`portal domains screen p99 ${screen.p99} ms against ${label} ${row.p99} ms: ${verdict} (within 20%)`);
  }
}
