import { isOriginOnHost, originHost } from '../src';

describe('the Origin rule of public requests', () => {
  it.each([
    ['https://example.com', true],
    ['http://example.com:8443', true],
    ['https://shop.example.com', true],
    ['https://a.b.EXAMPLE.com.', true],
    ['https://notexample.com', false],
    ['https://example.com.evil.net', false],
    ['https://evil.net', false],
    ['null', false],
    ['file:///etc/passwd', false],
    ['not a url', false],
    [undefined, false],
  ])('when the Origin is %s, then for the property example.com it is allowed: %s', (origin, allowed) => {
    expect(isOriginOnHost(origin, 'example.com')).toBe(allowed);
  });

  it('when an Origin carries a port or capitals, then its host is compared without them', () => {
    expect(originHost('HTTPS://WWW.Example.COM:444')).toBe('www.example.com');
  });
});
