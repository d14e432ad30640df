import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import * as platformClient from '@platform/client';
import { sharedSystem, type Partner, type System } from './support/system';

/** The first TypeScript block of docs/client.md, as partners read it. */
function firstTenLines(): string {
  const doc = readFileSync(path.resolve(__dirname, '../../../docs/client.md'), 'utf8');
  const block = /## A partner's first ten lines\s+```ts\n([\s\S]*?)\n```/.exec(doc);
  if (!block) throw new Error('docs/client.md has no ts block under "A partner\'s first ten lines"');
  return block[1];
}

/**
 * Runs the block as a partner would (TypeScript compiled, top-level await), with its environment
 * naming the gateway and the key, and returns what it printed, one entry per console.log.
 */
async function runFirstTenLines(env: Record<string, string>): Promise<unknown[][]> {
  const { outputText } = ts.transpileModule(firstTenLines(), {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
  });
  const printed: unknown[][] = [];
  const require = (name: string) => {
    if (name !== '@platform/client') throw new Error(`the block imports ${name}`);
    return platformClient;
  };
  const log = (...args: unknown[]) => void printed.push(args);
  const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (
    ...params: string[]
  ) => (...args: unknown[]) => Promise<void>;
  const block = new AsyncFunction('require', 'exports', 'process', 'console', outputText);
  await block(require, {}, { env }, { log, error: log });
  return printed;
}

describe("docs/client.md: a partner's first ten lines against the real gateway", () => {
  let sys: System;
  let partner: Partner;
  const env = () => ({ PLATFORM_URL: sys.gateway, PLATFORM_API_KEY: partner.key });
  const domainCount = async (status: number) => {
    const db = await sys.db();
    const { rows } = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM domains.idempotency_keys WHERE partner_id = $1 AND status = $2',
      [partner.id, status],
    );
    return rows[0].n;
  };

  beforeAll(async () => {
    sys = await sharedSystem();
    partner = await sys.partner();
  });
  afterAll(() => sys?.close());

  it('when run on a partner with 23 domains, then it lists all of them over three pages and creates the shop with an Idempotency-Key', async () => {
    const hosts = Array.from(
      { length: 23 },
      (_, i) => `site-${i}-${Math.random().toString(36).slice(2, 8)}.example.com`,
    );
    for (const host of hosts)
      await sys.arrange(partner, 'POST', '/portal/domains', {
        domain: host,
        company_name: `Company of ${host}`,
        account_email: `owner@${host}`,
      });

    const printed = await runFirstTenLines(env());

    // The default page is 10 rows: 23 domains are three pages, each row once.
    const listed = printed.slice(0, 23);
    expect(listed.map(([host]) => host).sort()).toEqual([...hosts].sort());
    for (const [, status] of listed) expect(status).toBe('NEW');
    expect(printed).toHaveLength(24);
    const [word, id] = printed[23];
    expect(word).toBe('created');
    const read = await sys.call(partner, 'GET', `/portal/domains/${String(id)}`);
    expect(read.status).toBe(200);
    expect(read.body.result).toMatchObject({ id, hostname: 'shop.example.com', status: 'NEW' });
    // The create went out with an Idempotency-Key (the domains service kept its answer; the arranged creates had none).
    expect(await domainCount(200)).toBe(1);
  });

  it('when run again, then the shop is listed too and the create is refused with a PlatformApiError of the envelope', async () => {
    const shop = (await sys.call(partner, 'GET', '/portal/domains?search=shop.example.com')).body.result[0];

    const printed = await runFirstTenLines(env());

    expect(printed).toHaveLength(25);
    expect(printed.slice(0, 24).map(([host]) => host)).toContain('shop.example.com');
    expect(printed[24]).toEqual([
      409,
      'DOMAIN.ALREADY_EXISTS',
      expect.any(String),
      expect.objectContaining({ id: shop.id }),
    ]);
    // A new write with a key of its own: its refusal is kept as an answer too.
    expect(await domainCount(409)).toBe(1);
  });
});
