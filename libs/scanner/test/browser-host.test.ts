import { BrowserHost, chromiumPathOf } from '../src/browser';

// The real Chromium (/usr/bin/chromium): how scans share it, and how one that could not close
// what it opened (a renderer stuck in a script) has it replaced without cutting the others short.
describe('BrowserHost', () => {
  let host: BrowserHost;
  beforeEach(() => {
    host = new BrowserHost(chromiumPathOf(undefined));
  });
  afterEach(() => host.close());

  it('when scans run at once, then they share one Chromium, which stays up after they end cleanly', async () => {
    const a = await host.acquire();
    const b = await host.acquire();
    expect(b.browser).toBe(a.browser);
    a.release(true);
    b.release(true);
    const c = await host.acquire();
    expect(c.browser).toBe(a.browser);
    expect(c.browser.isConnected()).toBe(true);
    c.release(true);
  });

  it('when a scan ends unclean, then later scans get a new Chromium and the old one closes once its last scan ends', async () => {
    const stuck = await host.acquire();
    const other = await host.acquire();
    const old = stuck.browser;
    stuck.release(false);

    const next = await host.acquire();
    expect(next.browser).not.toBe(old);
    // The other scan still on the old Chromium is not cut short.
    expect(old.isConnected()).toBe(true);
    const page = await (await old.newContext()).newPage();
    expect(await page.evaluate('1 + 1')).toBe(2);

    const closed = new Promise<void>((resolve) => old.on('disconnected', () => resolve()));
    other.release(true);
    await closed;
    expect(old.isConnected()).toBe(false);
    expect(next.browser.isConnected()).toBe(true);
    next.release(true);
  });

  it('when Chromium crashed, then the next scan launches a new one', async () => {
    const first = await host.acquire();
    first.release(true);
    const closed = new Promise<void>((resolve) => first.browser.on('disconnected', () => resolve()));
    await first.browser.close();
    await closed;
    const second = await host.acquire();
    expect(second.browser).not.toBe(first.browser);
    expect(second.browser.isConnected()).toBe(true);
    second.release(true);
  });
});
