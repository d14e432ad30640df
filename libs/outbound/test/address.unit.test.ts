import { addressVerdict } from '../src';

// Pure classification: nothing here opens a socket.
describe('address verdict', () => {
  it.each([
    ['93.184.216.34', 'a public IPv4 address'],
    ['8.8.8.8', 'a public IPv4 address'],
    ['2606:4700::1111', 'a public IPv6 address'],
    ['2a00:1450:4001:80b::200e', 'a public IPv6 address'],
    ['64:ff9b::5db8:d822', 'NAT64 of a public IPv4 (93.184.216.34)'],
    ['2002:5db8:d822::1', '6to4 of a public IPv4 (93.184.216.34)'],
    ['::ffff:93.184.216.34', 'IPv4-mapped public IPv4'],
  ])('when the address is %s (%s), then it is allowed', (address) => {
    expect(addressVerdict(address)).toMatchObject({ allowed: true });
  });

  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['::1', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.5.4', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['169.254.0.1', 'linkLocal'],
    ['fe80::1', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['100.127.255.254', 'carrierGradeNat'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['ff02::1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['::', 'unspecified'],
    ['240.0.0.1', 'reserved'],
    ['192.0.0.8', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['198.51.100.7', 'reserved'],
    ['203.0.113.9', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['2001:db8::1', 'reserved'],
    ['3fff::1', 'reserved'],
    ['fc00::1', 'uniqueLocal'],
    ['fd12:3456:789a::1', 'uniqueLocal'],
    ['fec0::1', 'deprecatedSiteLocal'],
    ['100::1', 'discard'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:169.254.169.254', 'linkLocal'],
    ['::ffff:a9fe:a9fe', 'linkLocal'],
    ['64:ff9b::a00:1', 'nat64(private)'],
    ['64:ff9b::7f00:1', 'nat64(loopback)'],
    ['64:ff9b::a9fe:a9fe', 'nat64(linkLocal)'],
    ['2002:a00:1::', '6to4(private)'],
    ['2002:a9fe:a9fe::1', '6to4(linkLocal)'],
    ['2002:7f00:1::', '6to4(loopback)'],
    ['64:ff9b:1::5db8:d822', 'rfc6052'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'teredo'],
    ['::ffff:0:a00:1', 'rfc6145'],
    ['::a00:1', 'notGlobalUnicast'],
    ['::5db8:d822', 'notGlobalUnicast'],
    ['4000::1', 'notGlobalUnicast'],
    ['fe80::1%eth0', 'invalid'],
    ['0177.0.0.1', 'invalid'],
    ['0x7f.0.0.1', 'invalid'],
    ['2130706433', 'invalid'],
    ['localhost', 'invalid'],
    ['', 'invalid'],
  ])('when the address is %s, then it is refused as %s', (address, range) => {
    expect(addressVerdict(address)).toEqual({ allowed: false, range });
  });

  it.each([['127.0.0.1'], ['127.8.9.10'], ['::1'], ['::ffff:127.0.0.1']])(
    'when loopback is allowed for development and the address is %s, then it is allowed',
    (address) => {
      expect(addressVerdict(address, { allowLoopback: true })).toEqual({ allowed: true, range: 'loopback' });
    },
  );

  it.each([
    ['10.0.0.1'],
    ['169.254.169.254'],
    ['0.0.0.0'],
    ['::'],
    ['fc00::1'],
    ['64:ff9b::7f00:1'],
    ['2002:7f00:1::'],
  ])('when loopback is allowed for development and the address is %s, then it is still refused', (address) => {
    expect(addressVerdict(address, { allowLoopback: true }).allowed).toBe(false);
  });
});
