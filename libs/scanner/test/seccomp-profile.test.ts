import { execFile } from 'node:child_process';
import { chownSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { browserUserOf } from '../src';
import { chromiumPathOf } from '../src/browser';

// deploy/seccomp/chromium.json, the profile the scanner's container runs under: default deny, the
// namespace calls Chromium's sandbox needs allowed without conditions, and every syscall the real
// Chromium makes (strace -f) while it renders a page with its sandbox, as an unprivileged user, in it.
const PROFILE = join(__dirname, '../../../deploy/seccomp/chromium.json');

interface Rule {
  names: string[];
  action: string;
  args?: unknown[];
}
const profile = JSON.parse(readFileSync(PROFILE, 'utf8')) as { defaultAction: string; syscalls: Rule[] };
const allowed = new Set(profile.syscalls.filter((r) => r.action === 'SCMP_ACT_ALLOW').flatMap((r) => r.names));

describe('deploy/seccomp/chromium.json', () => {
  it('when a syscall is not listed, then it is refused; the namespace calls of the sandbox are allowed whatever their flags', () => {
    expect(profile.defaultAction).toBe('SCMP_ACT_ERRNO');
    const unconditional = profile.syscalls.filter((r) => r.action === 'SCMP_ACT_ALLOW' && !r.args);
    for (const call of ['clone', 'unshare', 'setns', 'chroot'])
      expect(unconditional.some((r) => r.names.includes(call))).toBe(true);
    for (const refused of ['mount', 'bpf', 'kexec_load', 'init_module', 'add_key', 'keyctl', 'perf_event_open'])
      expect(allowed.has(refused)).toBe(false);
  });

  it('when Chromium renders a page with its sandbox as an unprivileged user, then every syscall it makes is allowed', async () => {
    const user = process.getuid!() === 0 ? browserUserOf('nobody')! : undefined;
    const dir = mkdtempSync(join(tmpdir(), 'seccomp-profile-'));
    const trace = join(dir, 'trace');
    const profileDir = join(dir, 'profile');
    const chromium = [
      chromiumPathOf(undefined),
      '--headless',
      `--user-data-dir=${profileDir}`,
      '--dump-dom',
      'data:text/html,<p>a</p><script>document.body.append(String(6 * 7))</script>',
    ];
    try {
      if (user) chownSync(dir, user.uid, user.gid);
      const drop = user ? ['/usr/bin/setpriv', `--reuid=${user.uid}`, `--regid=${user.gid}`, '--clear-groups'] : [];
      const { stdout } = await promisify(execFile)('strace', ['-f', '-qq', '-o', trace, ...drop, ...chromium], {
        env: { ...process.env, HOME: dir },
        timeout: 60_000,
      });
      expect(stdout).toContain('</script>42</body>');
      const lines = readFileSync(trace, 'utf8').split('\n');
      const made = new Set(
        lines
          .map((line) => /^\d+\s+(?:<\.\.\. )?([a-z_0-9]+)[( ]/.exec(line)?.[1])
          .filter((name): name is string => name !== undefined),
      );
      // The sandbox was on: its zygote was cloned into new user, pid and network namespaces.
      expect(lines.some((line) => /clone3?\(.*CLONE_NEWUSER\|CLONE_NEWPID\|CLONE_NEWNET/.test(line))).toBe(true);
      expect([...made].filter((name) => !allowed.has(name))).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
