import { spawn } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * Chromium renders sites anyone can submit, so it runs with its sandbox (renderers in their own
 * user, pid and network namespaces under seccomp-bpf) and never as root: Chromium refuses its
 * sandbox as root, so a root process starts it through setpriv as an unprivileged user. Where no
 * sandbox can work, browser mode is refused unless the operator allowed it (SCANNER_ALLOW_NO_SANDBOX).
 * See docs/scanner.md#the-browsers-sandbox.
 */

/** The account Chromium runs as when this process is root. */
export interface BrowserUser {
  name: string;
  uid: number;
  gid: number;
}

export type SandboxVerdict = { available: true; how: string } | { available: false; reason: string };

/** Whether Chromium's sandbox can work here for that user (undefined: this process's own). */
export type SandboxCheck = (executablePath: string, user: BrowserUser | undefined) => Promise<SandboxVerdict>;

/** Where the scanner reports the sandbox's state (pino's signature fits). */
export interface ScannerLogger {
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface SandboxSettings {
  /** SCANNER_BROWSER_USER: when this process is root, Chromium runs as this user (a name or uid:gid); default nobody. */
  user?: string;
  /** SCANNER_ALLOW_NO_SANDBOX: where no sandbox can work, run Chromium without it (a warning is logged) instead of refusing browser mode. */
  allowNone?: boolean;
  /** Whether the sandbox can work here; default checkChromiumSandbox (tests inject "no"). */
  check?: SandboxCheck;
  logger?: ScannerLogger;
}

/** How Chromium is started. */
export interface LaunchPlan {
  /** Chromium itself, or the wrapper that starts it as `user`. */
  executablePath: string;
  sandbox: boolean;
  user?: BrowserUser;
}

/** Browser mode may not run here (no sandbox and no override, or no way to leave root). */
export class BrowserRefusedError extends Error {
  constructor(reason: string) {
    super(`browser mode refused: ${reason}`);
    this.name = 'BrowserRefusedError';
  }
}

const SETPRIV = '/usr/bin/setpriv';
const UNSHARE = '/usr/bin/unshare';
const PROBE_MS = 5_000;

/** A user by name (from /etc/passwd) or as uid:gid. */
export function browserUserOf(spec: string): BrowserUser | undefined {
  const ids = /^(\d+):(\d+)$/.exec(spec);
  if (ids) return { name: spec, uid: Number(ids[1]), gid: Number(ids[2]) };
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.split(':')[0] === spec);
  const fields = line?.split(':');
  return fields ? { name: spec, uid: Number(fields[2]), gid: Number(fields[3]) } : undefined;
}

/** Runs a command (as `user` when given) and says whether it exited 0 in time. */
function succeeds(command: string, args: string[], user: BrowserUser | undefined): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      stdio: 'ignore',
      timeout: PROBE_MS,
      ...(user ? { uid: user.uid, gid: user.gid } : {}),
    });
    child.on('error', () => resolve(false));
    child.on('exit', (code) => resolve(code === 0));
  });
}

/** A setuid-root chrome-sandbox next to Chromium (or CHROME_DEVEL_SANDBOX): Chromium's other sandbox. */
function setuidSandbox(executablePath: string): string | undefined {
  const real = existsSync(executablePath) ? realpathSync(executablePath) : executablePath;
  const candidates = [process.env.CHROME_DEVEL_SANDBOX, join(dirname(real), 'chrome-sandbox')];
  if (real === '/usr/bin/chromium') candidates.push('/usr/lib/chromium/chrome-sandbox');
  return candidates.find((path) => {
    if (!path || !existsSync(path)) return false;
    const stat = statSync(path);
    return stat.uid === 0 && (stat.mode & 0o4000) !== 0;
  });
}

/**
 * The default check: the user can create the user, pid and network namespaces Chromium's
 * sandbox puts its renderers in (the kernel allows unprivileged user namespaces and seccomp lets
 * clone/unshare through: deploy/seccomp/chromium.json in a container), or a setuid chrome-sandbox is installed.
 */
export async function checkChromiumSandbox(
  executablePath: string,
  user: BrowserUser | undefined,
): Promise<SandboxVerdict> {
  if (await succeeds(UNSHARE, ['--user', '--pid', '--net', '--fork', 'true'], user))
    return { available: true, how: 'user namespaces' };
  const helper = setuidSandbox(executablePath);
  if (helper) return { available: true, how: `setuid sandbox ${helper}` };
  return {
    available: false,
    reason: `${user ? `user ${user.name}` : 'this process'} cannot create user namespaces (kernel setting, or a seccomp profile without clone/unshare: use deploy/seccomp/chromium.json) and no setuid chrome-sandbox is installed`,
  };
}

/**
 * A script that starts Chromium as `user`: it hands playwright's fresh profile directory to the
 * user, then setpriv drops root (user, group, no supplementary groups) and execs Chromium with
 * the same pid and pipes, so playwright drives and kills it as before.
 */
function privilegeDropWrapper(dir: string, executablePath: string, user: BrowserUser): string {
  const path = join(dir, 'chromium-as-user');
  writeFileSync(
    path,
    `#!/bin/sh
# Written by @platform/scanner: Chromium runs as ${user.name}, never as root.
set -e
for arg; do
  case "$arg" in --user-data-dir=*) profile="\${arg#--user-data-dir=}"; chown -R ${user.uid}:${user.gid} "$profile" ;; esac
done
export HOME="\${profile:-/nonexistent}" XDG_CONFIG_HOME="\${profile:-/nonexistent}" XDG_CACHE_HOME="\${profile:-/nonexistent}"
exec ${SETPRIV} --reuid=${user.uid} --regid=${user.gid} --clear-groups -- '${executablePath.replace(/'/g, `'\\''`)}' "$@"
`,
  );
  chmodSync(path, 0o700);
  return path;
}

/** The user Chromium must run as, or why it cannot leave root. */
function unprivilegedUser(settings: SandboxSettings): BrowserUser {
  const spec = settings.user || 'nobody';
  const user = browserUserOf(spec);
  if (!user) throw new BrowserRefusedError(`this process is root and the browser user "${spec}" does not exist`);
  if (user.uid === 0) throw new BrowserRefusedError(`the browser user "${spec}" is root`);
  if (!existsSync(SETPRIV))
    throw new BrowserRefusedError(
      `this process is root and ${SETPRIV} (util-linux) is missing to start Chromium as ${spec}`,
    );
  return user;
}

/** How Chromium is to be started here, decided once per BrowserHost; throws BrowserRefusedError. */
export class LaunchPlanner {
  private plan: Promise<LaunchPlan> | undefined;
  private wrapperDir: string | undefined;

  constructor(
    private readonly executablePath: string,
    private readonly settings: SandboxSettings,
  ) {}

  get(): Promise<LaunchPlan> {
    this.plan ??= this.decide().catch((err: unknown) => {
      this.settings.logger?.error({ err }, `${(err as Error).message}; scans run in http mode`);
      throw err;
    });
    return this.plan;
  }

  /** Removes the wrapper script. */
  dispose(): void {
    if (this.wrapperDir) rmSync(this.wrapperDir, { recursive: true, force: true });
    this.wrapperDir = undefined;
  }

  private async decide(): Promise<LaunchPlan> {
    const { settings, executablePath } = this;
    const user = process.getuid?.() === 0 ? unprivilegedUser(settings) : undefined;
    const verdict = await (settings.check ?? checkChromiumSandbox)(executablePath, user);
    if (!verdict.available && !settings.allowNone)
      throw new BrowserRefusedError(
        `Chromium's sandbox cannot work here (${verdict.reason}); set SCANNER_ALLOW_NO_SANDBOX=true to run it without one`,
      );
    if (!verdict.available)
      settings.logger?.warn(
        { reason: verdict.reason },
        'SCANNER_ALLOW_NO_SANDBOX: Chromium runs WITHOUT its sandbox; a renderer exploit on a scanned site reaches the scanner process',
      );
    if (!user) return { executablePath, sandbox: verdict.available };
    this.wrapperDir = mkdtempSync(join(tmpdir(), 'scanner-chromium-'));
    return {
      executablePath: privilegeDropWrapper(this.wrapperDir, executablePath, user),
      sandbox: verdict.available,
      user,
    };
  }
}
