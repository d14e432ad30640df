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

/**
 * The domains screen's API call as the portal makes it: a signed-in user's session cookie (no API
 * key), the first page of 20 of a partner with 100,000 domains. The user signs in as a partner's
 * administrator would: an operator's invitation link, whose token opens a session.
 */
export async function portalScenarios(
  gateway: string,
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
  return [
    {
      name: 'portal domains screen (session, 100k domains, 4 conn.)',
      connections: 4,
      url: gateway,
      headers: { cookie },
      paths: ['/portal/domains?limit=20'],
    },
  ];
}
