import { overridingResolver, parseResolveOverrides, targetProblem, type Resolver } from '../src';

/** No lookup ever leaves the process: names answer from this table. */
const table: Record<string, string[]> = {
  'public.example.com': ['93.184.216.34'],
  'sneaky.example.com': ['93.184.216.34', '10.1.2.3'],
};
const resolve: Resolver = async (name) => {
  const addresses = table[name];
  if (!addresses) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
  return addresses.map((address) => ({ address, family: 4 }));
};

describe('targetProblem (registration check of a partner URL)', () => {
  it('when the URL is a public name or address over http(s), then it is accepted; an unresolvable name too (it may resolve later)', async () => {
    for (const url of [
      'https://public.example.com/h',
      'http://93.184.216.34/h',
      'https://[2606:4700::1]/h',
      'https://nowhere.example.com/h',
    ]) {
      expect(await targetProblem(url, { resolve })).toBeUndefined();
    }
  });

  it('when the URL is refused by scheme, range, spelling or name, then it says why', async () => {
    const cases: [string, RegExp][] = [
      ['ftp://public.example.com/', /http or https/],
      ['http://10.0.0.1/', /may not be contacted \(private\)/],
      ['http://[::ffff:169.254.169.254]/', /may not be contacted/],
      ['http://2130706433/', /dotted decimal/],
      ['http://0x7f.1/', /dotted decimal/],
      ['http://localhost/', /local host name/],
      ['http://db.internal/', /local host name/],
      ['http://sneaky.example.com/', /resolves to an address/],
      ['not a url', /absolute URL/],
    ];
    for (const [url, why] of cases)
      expect({ url, problem: await targetProblem(url, { resolve }) }).toEqual({
        url,
        problem: expect.stringMatching(why),
      });
    expect(await targetProblem('http://public.example.com/', { resolve, httpsOnly: true })).toMatch(/https/);
    expect(await targetProblem('http://127.0.0.1:9/', { resolve, allowLoopback: true })).toBeUndefined();
    expect(
      await targetProblem('http://localhost:9/', {
        resolve: async () => [{ address: '127.0.0.1', family: 4 }],
        allowLoopback: true,
      }),
    ).toBeUndefined();
  });

  it('when overrides are given like curl --resolve, then those names answer them and others fall through', async () => {
    const overrides = parseResolveOverrides('hooks.test:127.0.0.1, v6.test:[::1]');
    expect(overrides).toEqual({ 'hooks.test': '127.0.0.1', 'v6.test': '::1' });
    const r = overridingResolver(overrides, resolve);
    expect(await r('HOOKS.test.')).toEqual([{ address: '127.0.0.1', family: 4 }]);
    expect(await r('public.example.com')).toEqual([{ address: '93.184.216.34', family: 4 }]);
    expect(() => parseResolveOverrides('broken')).toThrow(/name:address/);
  });
});
