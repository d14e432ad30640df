// Paths are spelled in one place (src/routes.ts): a screen links with routes.*(), never a hand-written
// path, so renaming a screen cannot leave a dead link behind (unkey's no-handrolled-routes test).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const SRC = path.resolve(__dirname, '../src');
const HAND_WRITTEN = /\b(?:to|href)=["'{`]+\/[a-z]|navigate\(\s*["'`]\/[a-z]|<Navigate[^>]*to=["']\//g;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return sources(file);
    return /\.tsx?$/.test(name) ? [file] : [];
  });
}

describe('paths in the portal', () => {
  it('are built by src/routes.ts only, never written by hand in a screen', () => {
    const offenders = sources(SRC)
      .filter((file) => !file.endsWith(`${path.sep}routes.ts`))
      .flatMap((file) =>
        [...readFileSync(file, 'utf8').matchAll(HAND_WRITTEN)].map((m) => `${path.relative(SRC, file)}: ${m[0]}`),
      );
    expect(offenders).toEqual([]);
  });

  it("are what the router matches: every builder's path has a pattern", () => {
    const routesFile = readFileSync(path.join(SRC, 'routes.ts'), 'utf8');
    const patterns = [...routesFile.matchAll(/^\s+\w+: '([^']*)',$/gm)].map((m) => m[1]);
    for (const builderPath of [
      'sign-in',
      'domains/new',
      'integrations/api-keys',
      'integrations/webhooks',
      'email-templates',
      'audit-log',
    ])
      expect(patterns).toContain(builderPath);
  });
});
