import { spawn } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
const ESLINT = path.join(ROOT, 'node_modules', 'eslint', 'bin', 'eslint.js');

const BOUNDARY_RULES = ['no-restricted-imports', '@nx/enforce-module-boundaries'];

/** The repository's own `eslint` (what npm run lint runs) on a snippet, as if it lived at filePath: the messages of the given rules. */
function lintMessages(filePath: string, code: string, rules = BOUNDARY_RULES): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [ESLINT, '--stdin', '--stdin-filename', filePath, '--format', 'json'], {
      cwd: ROOT,
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('close', () => {
      try {
        const [result] = JSON.parse(out) as { messages: { ruleId: string | null; message: string }[] }[];
        resolve(result.messages.filter((m) => m.ruleId !== null && rules.includes(m.ruleId)).map((m) => m.message));
      } catch (err) {
        reject(new Error(`eslint gave no JSON: ${out.slice(0, 500)} (${String(err)})`));
      }
    });
    child.stdin.end(code);
  });
}

describe('layer boundaries enforced by npm run lint', () => {
  it.each([
    ["import express from 'express';", 'express'],
    ["import { sql } from 'kysely';", 'kysely'],
    ["import amqp from 'amqplib';", 'amqplib'],
    ["import { waitFor } from '@platform/testing';", 'testing'],
  ])('when a service domain/ file has %s, then lint fails', async (code, what) => {
    const messages = await lintMessages(
      'apps/domains-svc/src/domain/new-use-case.ts',
      `${code}\nexport const x = 1;\n`,
    );
    expect(messages.join('\n')).toMatch(new RegExp(what === 'testing' ? 'tests only' : 'domain/ holds use cases'));
  });

  it('when a service source file outside tests imports libs/testing, then lint fails; a test file may', async () => {
    const code = "import { waitFor } from '@platform/testing';\nexport const x = waitFor;\n";
    expect(await lintMessages('apps/billing-svc/src/new-file.ts', code)).toEqual([
      expect.stringContaining('tests only'),
    ]);
    expect(await lintMessages('apps/billing-svc/test/new-file.test.ts', code)).toEqual([]);
  });

  it('when a lib other than libs/http imports express, then lint fails; libs/http may', async () => {
    const code = "import express from 'express';\nexport const x = express;\n";
    expect(await lintMessages('libs/messaging/src/new-file.ts', code)).toEqual([
      expect.stringContaining('Only libs/http'),
    ]);
    expect(await lintMessages('libs/http/src/new-file.ts', code)).toEqual([]);
  });

  it('when an app imports another app, then lint fails', async () => {
    const messages = await lintMessages(
      'apps/billing-svc/src/new-file.ts',
      "import { buildServer } from '../../domains-svc/src/app';\nexport const x = buildServer;\n",
    );
    expect(messages.length).toBeGreaterThan(0);
  });
});

describe('import cycles, forbidden by npm run lint', () => {
  const cycles = (filePath: string, code: string) => lintMessages(filePath, code, ['local/no-import-cycle']);

  it('when a file imports, even only a type, through a lib index that re-exports the file itself, then lint fails naming the chain', async () => {
    const code = "import type { Listen } from '@platform/config';\nexport type Again = Listen;\n";
    expect(await cycles('libs/config/src/platform.ts', code)).toEqual([
      expect.stringContaining(
        'Import cycle: libs/config/src/platform.ts -> libs/config/src/index.ts -> libs/config/src/platform.ts',
      ),
    ]);
  });

  it('when a file imports only files that never lead back to it, then lint passes', async () => {
    const code = "import { env } from './env';\nexport const port = env.port;\n";
    expect(await cycles('libs/config/src/platform.ts', code)).toEqual([]);
  });
});
