import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { browserUserOf } from '@platform/scanner';
import { descendantsOfThisProcess } from '@platform/testing';
import { startDomainsSvc, uniqueHost, type Harness } from './support/harness';
import { finished, queueScan } from './support/scans';

/**
 * The scanner role's Chromium (SCANNER_MODE=browser, the real /usr/bin/chromium) from this test
 * process, root in CI: it runs as SCANNER_BROWSER_USER with its sandbox, and a browser user it
 * cannot become refuses browser mode (scans in http mode). Sites on 127.0.0.1 only.
 */
const root = process.getuid!() === 0;

/** uid and arguments of this process's Chromium processes (/proc). */
function chromiumProcesses(): Array<{ uid: number; args: string[] }> {
  return descendantsOfThisProcess().flatMap(({ pid }) => {
    try {
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split(/[\0 ]/).filter(Boolean);
      const uid = Number(/^Uid:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);
      return args[0]?.endsWith('/chromium') ? [{ uid, args }] : [];
    } catch {
      return [];
    }
  });
}

describe.each([
  ['nobody', 'browser'],
  ['no-such-scanner-user', root ? 'http' : 'browser'],
])('scans with SCANNER_BROWSER_USER=%s', (user, mode) => {
  let site: Server;
  let h: Harness;

  beforeAll(async () => {
    site = createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end('<p>calm</p><a href="/about">about</a>'),
    );
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    h = await startDomainsSvc({
      SCANNER_MODE: 'browser',
      SCANNER_BROWSER_USER: user,
      SCANNER_CONNECT_TO: `*:443:127.0.0.1:9,*:80:127.0.0.1:${(site.address() as AddressInfo).port}`,
    });
  });
  afterAll(async () => {
    await h?.close();
    site?.closeAllConnections();
    await new Promise((resolve) => site?.close(resolve));
  });

  it(`when a site is scanned, then the scan completes in ${mode} mode${mode === 'browser' ? ', its Chromium unprivileged and sandboxed' : ' (browser mode refused: the process cannot leave root)'}`, async () => {
    const p = h.partner();
    const report = await finished(h, p, await queueScan(h, p, uniqueHost('calm')));

    expect({ status: report.status, mode: report.mode, errors: report.errors }).toEqual({
      status: 'completed',
      mode,
      errors: [],
    });
    const processes = chromiumProcesses();
    if (mode === 'http') return expect(processes).toEqual([]);
    const uid = root ? browserUserOf(user)!.uid : process.getuid!();
    expect(processes.length).toBeGreaterThan(0);
    expect(processes.filter((c) => c.uid !== uid || c.args.includes('--no-sandbox'))).toEqual([]);
  });
});
