import { parseArgs, type ParseArgsConfig } from 'node:util';
import { createDb, type Kysely } from '@platform/db';
import { ConfigError } from '@platform/config';
import { loadAdminConfig } from '../config';
import { migrateGateway } from '../db/migrations';
import { GATEWAY_SCHEMA, type GatewayDb } from '../db/tables';
import { AdminInputError, AdminService } from '../domain/admin.service';

export const USAGE = `Usage: npm run admin -- <command> [options] [--json]

  partner create --name <name> [--require-fields a,b]   fields: account_first_name, account_last_name, phone_number
  partner update --partner <partnerId> [--require-fields a,b] [--default-product <code>] [--default-price-list <code>]
                 codes from GET /portal/products; "none" clears a default
  partner list
  key create --partner <partnerId> [--permissions a,b] [--allowed-ip <ip>] [--expires-at <iso>] [--name <label>]
  key list --partner <partnerId>
  key revoke --id <keyId>
  user invite --partner <partnerId> --email <e-mail> --role <ADMINISTRATOR|ACCOUNT_MANAGER|DEVELOPER> [--name <name>]
              e-mails a portal sign-in link (sent by the running gateway); an existing user gets a new link

--json prints exactly one JSON object on stdout. Reads DATABASE_URL; applies migrations first.
Exit codes: 0 done, 1 failure (e.g. database unreachable), 2 bad arguments.`;

type Options = NonNullable<ParseArgsConfig['options']>;
const flag = { type: 'boolean' } as const;
const text = { type: 'string' } as const;

interface Command {
  options: Options;
  run(service: AdminService, values: Record<string, string | boolean | undefined>): Promise<unknown>;
  /** One human-readable rendering when --json is not given. */
  human(result: unknown): string;
}

const list = (v: unknown) =>
  typeof v === 'string'
    ? v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : undefined;
const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
const pretty = (value: unknown) => JSON.stringify(value, null, 2);

/** Service input names as the operator typed them. */
const FLAG_OF: Record<string, string> = {
  name: '--name',
  requiredFields: '--require-fields',
  defaultProduct: '--default-product',
  defaultPriceList: '--default-price-list',
  partnerId: '--partner',
  permissions: '--permissions',
  allowedIp: '--allowed-ip',
  expiresAt: '--expires-at',
  email: '--email',
  role: '--role',
  value: 'the id',
};

const COMMANDS: Record<string, Command> = {
  'partner create': {
    options: { name: text, 'require-fields': text },
    run: (s, v) => s.createPartner({ name: str(v.name) ?? '', requiredFields: list(v['require-fields']) }),
    human: (r) => `Partner created:\n${pretty(r)}`,
  },
  'partner update': {
    options: { partner: text, 'require-fields': text, 'default-product': text, 'default-price-list': text },
    run: (s, v) =>
      s.updatePartner({
        partnerId: str(v.partner) ?? '',
        requiredFields: list(v['require-fields']),
        defaultProduct: str(v['default-product']),
        defaultPriceList: str(v['default-price-list']),
      }),
    human: (r) => `Partner updated:\n${pretty(r)}`,
  },
  'partner list': {
    options: {},
    run: async (s) => ({ result: await s.listPartners() }),
    human: pretty,
  },
  'key create': {
    options: { partner: text, permissions: text, 'allowed-ip': text, 'expires-at': text, name: text },
    run: (s, v) =>
      s.createKey({
        partnerId: str(v.partner) ?? '',
        permissions: list(v.permissions),
        allowedIp: str(v['allowed-ip']),
        expiresAt: str(v['expires-at']),
        name: str(v.name),
      }),
    human: (r) => `API key created. Store the key now: it is shown only once.\n${pretty(r)}`,
  },
  'key list': {
    options: { partner: text },
    run: async (s, v) => ({ result: await s.listKeys(str(v.partner) ?? '') }),
    human: pretty,
  },
  'user invite': {
    options: { partner: text, email: text, role: text, name: text },
    run: (s, v) =>
      s.inviteUser({
        partnerId: str(v.partner) ?? '',
        email: str(v.email) ?? '',
        role: (str(v.role) ?? '') as 'ADMINISTRATOR',
        name: str(v.name),
      }),
    human: (r) => {
      const { created, user, sign_in_url } = r as { created: boolean; user: { email: string }; sign_in_url: string };
      return `${created ? 'User invited' : 'User exists: a new sign-in link was sent'} (${user.email}).\nSign-in link (works once, for 15 minutes): ${sign_in_url}\n${pretty(user)}`;
    },
  },
  'key revoke': {
    options: { id: text },
    run: (s, v) => s.revokeKey(str(v.id) ?? ''),
    human: (r) => `API key revoked:\n${pretty(r)}`,
  },
};

export interface CliIo {
  out(line: string): void;
  err(line: string): void;
}

/** Errors a script can branch on (`--json` prints `{"error": {"code", "message", "issues"?}}` on stdout). */
type CliErrorCode = 'USAGE' | 'INVALID_INPUT' | 'CONFIG' | 'DATABASE_UNAVAILABLE' | 'INTERNAL';

const CONNECTION_FAILURES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'ETIMEDOUT',
  'ECONNRESET',
  'EHOSTUNREACH',
  '57P03',
  '3D000',
  '28P01',
]);
const isConnectionFailure = (err: unknown) => {
  const code = (err as { code?: unknown })?.code;
  return (
    (typeof code === 'string' && CONNECTION_FAILURES.has(code)) ||
    /connect|timeout/i.test((err as Error)?.message ?? '')
  );
};

type Fail = (
  code: CliErrorCode,
  message: string,
  exitCode: number,
  issues?: { flag: string; message: string }[],
) => number;

/** Humans read stderr; with --json, stdout also carries exactly one JSON object with the error. Returns the exit code. */
const failer =
  (io: CliIo, json: boolean): Fail =>
  (code, message, exitCode, issues) => {
    io.err(code === 'USAGE' ? message : `error: ${message}`);
    if (json)
      io.out(JSON.stringify({ error: { code, message: message.split('\n\n')[0], ...(issues ? { issues } : {}) } }));
    return exitCode;
  };

/** The command named by argv and its flags; otherwise the usage error's exit code. */
function parseCommand(argv: string[], json: boolean, fail: Fail) {
  // The command is its first two words; --json may come anywhere, before them too.
  const words = argv.filter((arg) => arg !== '--json');
  const [group, action] = words;
  const rest = json ? [...words.slice(2), '--json'] : words.slice(2);
  const command = COMMANDS[`${group} ${action}`];
  if (!command) {
    const named = [group, action].filter(Boolean).join(' ');
    return fail(
      'USAGE',
      group === undefined || group === '--help' ? USAGE : `Unknown command "${named}".\n\n${USAGE}`,
      2,
    );
  }
  try {
    const { values } = parseArgs({
      args: rest,
      options: { ...command.options, json: flag },
      strict: true,
      allowPositionals: false,
    });
    return { command, action, values: values as Record<string, string | boolean | undefined> };
  } catch (err) {
    return fail('USAGE', `${(err as Error).message}\n\n${USAGE}`, 2);
  }
}

/** The answer to a command that threw: bad input (2), an unreachable database or anything else (1). */
function failureOf(err: unknown, fail: Fail): number {
  if (err instanceof AdminInputError) {
    const issues = err.issues.map((i) => ({ flag: FLAG_OF[i.input] ?? i.input, message: i.message }));
    const message = issues.length > 0 ? issues.map((i) => `${i.flag}: ${i.message}`).join('\n') : err.message;
    return fail('INVALID_INPUT', message, 2, issues.length > 0 ? issues : undefined);
  }
  if (isConnectionFailure(err))
    return fail('DATABASE_UNAVAILABLE', `the database is not reachable (${(err as Error).message})`, 1);
  return fail('INTERNAL', err instanceof Error ? err.message : String(err), 1);
}

/** Runs one admin command and returns the process exit code. */
export async function runAdmin(argv: string[], io: CliIo): Promise<number> {
  const json = argv.includes('--json');
  const fail = failer(io, json);
  const parsed = parseCommand(argv, json, fail);
  if (typeof parsed === 'number') return parsed;
  const { command, action, values } = parsed;
  let config;
  try {
    config = loadAdminConfig();
  } catch (err) {
    return fail('CONFIG', err instanceof ConfigError ? err.message : String(err), 2);
  }
  let db: Kysely<GatewayDb> | undefined;
  try {
    ({ db } = createDb<GatewayDb>({ url: config.DATABASE_URL, schema: GATEWAY_SCHEMA, max: 2 }));
    await migrateGateway(db);
    const result = await command.run(new AdminService(db, config.PORTAL_URL), values);
    io.out(json ? JSON.stringify(result) : command.human(result));
    const expiresAt = values['expires-at'];
    if (action === 'create' && typeof expiresAt === 'string' && Date.parse(expiresAt) <= Date.now()) {
      io.err('warning: the key is already expired');
    }
    return 0;
  } catch (err) {
    return failureOf(err, fail);
  } finally {
    // The answer is out: closing the pool must not add a second one.
    await db?.destroy().catch(() => undefined);
  }
}
