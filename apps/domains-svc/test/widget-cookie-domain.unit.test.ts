import { registrableDomain } from '../src/widget/cookie-domain';

describe("the widget's cookie domain (the registrable domain of the property's hostname)", () => {
  it.each([
    ['shop.example', 'shop.example'],
    ['www.shop.example.com', 'example.com'],
    ['shop.example.com', 'example.com'],
    ['blog.shop.co.uk', 'shop.co.uk'],
    ['shop.co.uk', 'shop.co.uk'],
    ['alice.github.io', 'alice.github.io'], // a private suffix counts: browsers refuse a cookie on github.io
  ])('when the hostname is %s, then it is %s', (hostname, domain) => {
    expect(registrableDomain(hostname)).toBe(domain);
  });

  it.each(['co.uk', 'com', 'github.io', 'localhost', '127.0.0.1', '10.1.2.3', '[::1]', '::1'])(
    'when the hostname is %s (a public suffix, localhost or an IP address), then there is none: null',
    (hostname) => {
      expect(registrableDomain(hostname)).toBeNull();
    },
  );
});
