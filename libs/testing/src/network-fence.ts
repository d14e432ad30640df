import net from 'node:net';
import tls from 'node:tls';

/**
 * A fence around a test file: every socket Node opens (undici's included) goes through net.connect
 * or tls.connect; both are watched, and anything but loopback (127.0.0.1, ::1) throws instead of
 * connecting. So even a broken SSRF guard cannot send a packet to a private or public address.
 */
export function fenceNetwork() {
  const attempts: string[] = [];
  const realNet = net.connect;
  const realTls = tls.connect;
  const check = (options: unknown) => {
    const host =
      typeof options === 'object' && options !== null ? (options as { host?: string }).host : String(options);
    attempts.push(String(host));
    if (host !== '127.0.0.1' && host !== '::1') throw new Error(`test fence: refused to connect to ${host}`);
  };
  const netSpy = jest.spyOn(net, 'connect').mockImplementation(((...args: Parameters<typeof net.connect>) => {
    check(args[0]);
    return realNet.apply(net, args);
  }) as typeof net.connect);
  const tlsSpy = jest.spyOn(tls, 'connect').mockImplementation(((...args: Parameters<typeof tls.connect>) => {
    check(args[0]);
    return realTls.apply(tls, args);
  }) as typeof tls.connect);
  return {
    /** The hosts connected to (or refused), in order. */
    attempts,
    restore() {
      netSpy.mockRestore();
      tlsSpy.mockRestore();
    },
  };
}
