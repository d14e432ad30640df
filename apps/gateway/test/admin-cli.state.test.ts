import { createServer, type AddressInfo } from 'node:net';
import { Client } from 'pg';
import { PERMISSIONS } from '@platform/contracts';
import { admin, runCli, startSuite, type CreatedKey, type Suite } from './support/harness';

/** A 127.0.0.1 port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('admin CLI: partners and keys', () => {
  let suite: Suite;
  let db: Client;

  beforeAll(async () => {
    suite = await startSuite();
    db = new Client({ connectionString: suite.databaseUrl });
    await db.connect();
  });
  afterAll(async () => {
    await db?.end();
    await suite?.close();
  });

  it('when a partner is created with required fields, then it is stored and listed', async () => {
    const created = await admin<{ id: string; name: string; required_fields: string[] }>(
      suite.databaseUrl,
      'partner',
      'create',
      '--name',
      'Acme Hosting',
      '--require-fields',
      'account_first_name,phone_number',
    );
    expect(created).toEqual(
      expect.objectContaining({
        id: expect.any(String),
        name: 'Acme Hosting',
        required_fields: ['account_first_name', 'phone_number'],
      }),
    );
    const { rows } = await db.query('SELECT name, required_fields FROM gateway.partners WHERE id = $1', [created.id]);
    expect(rows).toEqual([{ name: 'Acme Hosting', required_fields: ['account_first_name', 'phone_number'] }]);
    const listed = await admin<{ result: { id: string }[] }>(suite.databaseUrl, 'partner', 'list');
    expect(listed.result.map((p) => p.id)).toContain(created.id);
  });

  it('when a partner is updated, then its defaults and required fields change, "none" clears a default, and an unknown id or no change is refused', async () => {
    const partnerId = await suite.partner();
    type Defaults = { default_product: string | null; default_price_list: string | null; required_fields: string[] };
    const update = (...args: string[]) =>
      admin<Defaults>(suite.databaseUrl, 'partner', 'update', '--partner', partnerId, ...args);
    const updated = await update(
      '--default-product',
      'PRO',
      '--default-price-list',
      'EU',
      '--require-fields',
      'phone_number',
    );
    expect(updated).toMatchObject({
      default_product: 'PRO',
      default_price_list: 'EU',
      required_fields: ['phone_number'],
    });
    const cleared = await update('--default-product', 'none');
    expect(cleared).toMatchObject({ default_product: null, default_price_list: 'EU' });
    const { rows } = await db.query(
      'SELECT default_product, default_price_list, required_fields FROM gateway.partners WHERE id = $1',
      [partnerId],
    );
    expect(rows).toEqual([{ default_product: null, default_price_list: 'EU', required_fields: ['phone_number'] }]);
    for (const args of [
      ['--partner', '00000000-0000-4000-8000-000000000000', '--default-product', 'PRO'],
      ['--partner', partnerId],
    ]) {
      const res = await runCli(suite.databaseUrl, ['partner', 'update', ...args, '--json']);
      expect({ args, code: res.code }).toEqual({ args, code: 2 });
    }
  });

  it('when a key is created, then the full key is printed once and only its SHA-256 hash is stored', async () => {
    const partnerId = await suite.partner();
    const created = await admin<CreatedKey>(suite.databaseUrl, 'key', 'create', '--partner', partnerId, '--name', 'ci');
    expect(created).toEqual({
      id: expect.any(String),
      key: expect.stringMatching(/^pdm_live_[0-9A-Za-z]{12}_[0-9A-Za-z]{40}$/),
      prefix: created.key.slice(0, 21),
      partner_id: partnerId,
      name: 'ci',
      permissions: expect.arrayContaining(['domains:read', 'webhooks:write']),
      allowed_ip: null,
      expires_at: null,
      created_at: expect.any(String),
    });
    // A key made without a list gets every permission there is.
    expect([...created.permissions].sort()).toEqual([...PERMISSIONS].sort());
    const secret = created.key.slice(22);
    const { rows } = await db.query(
      `SELECT k.*, encode(secret_hash, 'hex') AS hex, encode(sha256(convert_to($2, 'UTF8')), 'hex') AS expected
         FROM gateway.api_keys k WHERE id = $1`,
      [created.id, created.key],
    );
    expect(rows[0].hex).toBe(rows[0].expected);
    const dump = await db.query(`SELECT string_agg(t::text, ' ') AS all FROM gateway.api_keys t`);
    expect(dump.rows[0].all).not.toContain(secret);
  });

  it('when keys are listed, then neither keys, secrets nor hashes are shown', async () => {
    const partnerId = await suite.partner();
    const a = await suite.key(
      partnerId,
      '--permissions',
      'domains:read',
      '--allowed-ip',
      '203.0.113.9',
      '--expires-at',
      '2099-01-01T00:00:00Z',
    );
    const b = await suite.key(partnerId);
    const listed = await runCli(suite.databaseUrl, ['key', 'list', '--partner', partnerId, '--json']);
    expect(listed.code).toBe(0);
    for (const k of [a, b]) expect(listed.stdout).not.toContain(k.key.slice(22));
    expect(listed.stdout).not.toMatch(/hash/);
    const { result } = JSON.parse(listed.stdout);
    expect(result).toHaveLength(2);
    expect(result.find((k: { id: string }) => k.id === a.id)).toEqual(
      expect.objectContaining({
        prefix: a.prefix,
        permissions: ['domains:read'],
        allowed_ip: '203.0.113.9',
        expires_at: '2099-01-01T00:00:00.000Z',
        status: 'active',
      }),
    );
    const human = await runCli(suite.databaseUrl, ['key', 'list', '--partner', partnerId]);
    expect(human.stdout).not.toContain(a.key.slice(22));
  });

  it('when a key is revoked, then it is marked revoked and revoking again keeps the first time', async () => {
    const { id } = await suite.key(await suite.partner());
    const first = await admin<{ revoked_at: string; status: string }>(suite.databaseUrl, 'key', 'revoke', '--id', id);
    expect(first.status).toBe('revoked');
    const again = await admin<{ revoked_at: string }>(suite.databaseUrl, 'key', 'revoke', '--id', id);
    expect(again.revoked_at).toBe(first.revoked_at);
  });

  it.each([
    [['partner', 'create']],
    [['partner', 'create', '--name', 'X', '--require-fields', 'shoe_size']],
    [['key', 'create', '--partner', 'not-a-uuid']],
    [['key', 'create', '--partner', '00000000-0000-4000-8000-000000000000']],
    [['key', 'create', '--partner', '00000000-0000-4000-8000-000000000000', '--permissions', 'domains:fly']],
    [['key', 'create', '--partner', '00000000-0000-4000-8000-000000000000', '--allowed-ip', '10.0.0']],
    [['key', 'create', '--partner', '00000000-0000-4000-8000-000000000000', '--expires-at', 'tomorrow']],
    [['key', 'revoke', '--id', '00000000-0000-4000-8000-000000000000']],
    [['key', 'list', '--partner']],
    [['key', 'explode']],
    [['partner', 'list', '--unknown-flag']],
    [[]],
  ])(
    'when the arguments are %j, then it exits 2 with a message on stderr and, with --json, one error object on stdout',
    async (args) => {
      const res = await runCli(suite.databaseUrl, [...args, '--json']);
      expect(res.code).toBe(2);
      expect(res.stderr.trim().length).toBeGreaterThan(0);
      expect(res.stdout.trim().split('\n')).toHaveLength(1);
      expect(JSON.parse(res.stdout)).toEqual({
        error: expect.objectContaining({
          code: expect.stringMatching(/^(USAGE|INVALID_INPUT)$/),
          message: expect.any(String),
        }),
      });
    },
  );

  it('when a portal user is invited, then the user is stored INVITED, an invitation is queued, and a second invite sends a new link', async () => {
    const partner = await admin<{ id: string }>(suite.databaseUrl, 'partner', 'create', '--name', 'Invites Inc');
    const invite = () =>
      admin<{
        created: boolean;
        user: { id: string; email: string; role: string; status: string };
        sign_in_url: string;
      }>(
        suite.databaseUrl,
        'user',
        'invite',
        '--partner',
        partner.id,
        '--email',
        'Ada@Example.com',
        '--role',
        'ADMINISTRATOR',
      );
    const first = await invite();
    expect(first).toEqual({
      created: true,
      user: expect.objectContaining({ email: 'ada@example.com', role: 'ADMINISTRATOR', status: 'INVITED' }),
      sign_in_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:8080\/app\/sign-in#token=[A-Za-z0-9_-]{43}$/),
    });
    const second = await invite();
    expect(second.created).toBe(false);
    expect(second.user.id).toBe(first.user.id);
    expect(second.sign_in_url).not.toBe(first.sign_in_url);
    const { rows } = await db.query<{ kind: string; to_address: string }>(
      'SELECT kind, to_address FROM gateway.mail_queue ORDER BY id',
    );
    expect(rows).toEqual([
      { kind: 'portal.invitation', to_address: 'ada@example.com' },
      { kind: 'portal.invitation', to_address: 'ada@example.com' },
    ]);
    // Only the token's SHA-256 is stored.
    const token = first.sign_in_url.split('#token=')[1];
    const stored = await db.query('SELECT 1 FROM gateway.sign_in_tokens WHERE token_hash = sha256($1::bytea)', [
      Buffer.from(token),
    ]);
    expect(stored.rowCount).toBe(1);
    const bad = await runCli(suite.databaseUrl, [
      'user',
      'invite',
      '--partner',
      partner.id,
      '--email',
      'x@y.test',
      '--role',
      'KING',
      '--json',
    ]);
    expect(bad.code).toBe(2);
    expect(JSON.parse(bad.stdout).error.issues).toEqual([{ flag: '--role', message: expect.any(String) }]);
  });

  it('when --json comes before the command, then the command runs and prints its one JSON object', async () => {
    const res = await runCli(suite.databaseUrl, ['--json', 'partner', 'list']);
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout)).toEqual({ result: expect.any(Array) });
  });

  it('when the arguments are bad without --json, then it exits 2 with the message on stderr and nothing on stdout', async () => {
    const res = await runCli(suite.databaseUrl, ['key', 'create', '--partner', 'not-a-uuid']);
    expect([res.code, res.stdout]).toEqual([2, '']);
    expect(res.stderr).toMatch(/--partner/);
  });

  it('when DATABASE_URL is not a database URL, then it exits 2 and, with --json, prints one CONFIG error object', async () => {
    const res = await runCli('not a url', ['partner', 'list', '--json']);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/DATABASE_URL/);
    expect(JSON.parse(res.stdout)).toEqual({
      error: { code: 'CONFIG', message: expect.stringContaining('DATABASE_URL') },
    });
  });

  it('when an input is invalid, then the JSON error names the flag', async () => {
    const res = await runCli(suite.databaseUrl, [
      'key',
      'create',
      '--partner',
      '00000000-0000-4000-8000-000000000000',
      '--permissions',
      'domains:fly',
      '--json',
    ]);
    expect(JSON.parse(res.stdout).error).toMatchObject({
      code: 'INVALID_INPUT',
      issues: expect.arrayContaining([expect.objectContaining({ flag: '--permissions' })]),
    });
  });

  it('when the database is unreachable, then it exits 1 with a message, and with --json a DATABASE_UNAVAILABLE object on stdout', async () => {
    const res = await runCli(`postgres://postgres@127.0.0.1:${await closedPort()}/none`, ['partner', 'list', '--json']);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/error/);
    expect(JSON.parse(res.stdout)).toEqual({
      error: { code: 'DATABASE_UNAVAILABLE', message: expect.stringContaining('not reachable') },
    });
    const human = await runCli(`postgres://postgres@127.0.0.1:${await closedPort()}/none`, ['partner', 'list']);
    expect([human.code, human.stdout]).toEqual([1, '']);
  });
});
