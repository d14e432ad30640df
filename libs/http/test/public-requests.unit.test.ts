import { isOriginOnHost, isUrlOnHost, originHost } from '../src';

describe('the Origin rule of public requests', () => {
  it.each([
    ['https://example.com', true],
    ['http://example.com:8443', true],
    ['https://shop.example.com', true],
    ['https://a.b.example.com.', true],
    ['https://a.b.EXAMPLE.com', false],
    ['https://example.com/', false],
    ['https://example.com:443', false],
    ['https://user@example.com', false],
    ['https://example.com\\@evil.net', false],
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

  it('when an Origin carries a port, then its host is compared without it', () => {
    expect(originHost('https://www.example.com:444')).toBe('www.example.com');
  });

  it.each([
    ['https://example.com/page?q=1', true],
    ['http://shop.EXAMPLE.com:8080/', true],
    ['https://evil.net/x', false],
    ['https://example.com.evil.net/', false],
    ['javascript:alert(1)', false],
    ['//example.com/', false],
  ])("when a page's URL is %s, then for the property example.com it is on the host: %s", (url, on) => {
    expect(isUrlOnHost(url, 'example.com')).toBe(on);
  });
});
