import {
  Classifier,
  isFirstParty,
  isSameSite,
  KNOWN_COOKIES,
  knownCookie,
  registrableDomain,
  TRACKERDB_CATEGORIES,
} from '../src';

describe('classification (Ghostery tracker database + well-known cookie names)', () => {
  let classifier: Classifier;
  beforeAll(async () => {
    classifier = await Classifier.load();
  });

  it('when a host is in the tracker database, then its category is mapped to ours and its organisation is the vendor', () => {
    expect(classifier.host('www.google-analytics.com')).toEqual({ category: 'analytics', vendor: 'Google' });
    expect(classifier.host('connect.facebook.net')).toEqual({ category: 'marketing', vendor: 'Meta' });
    expect(classifier.host('doubleclick.net')).toEqual({ category: 'marketing', vendor: 'Google' });
    expect(classifier.host('www.youtube.com')).toEqual({ category: 'functional', vendor: 'Google' });
    expect(classifier.host('cdn.cookielaw.org')).toEqual({ category: 'necessary', vendor: 'OneTrust' });
  });

  it('when a URL matches several patterns, then the category that asks most consent wins (fbevents: analytics and advertising -> marketing)', () => {
    expect(
      classifier.request('https://connect.facebook.net/en_US/fbevents.js', 'script', 'https://shop.example/'),
    ).toEqual({ category: 'marketing', vendor: 'Meta' });
  });

  it('when no source knows a host or cookie, then it is unclassified with no vendor', () => {
    expect(classifier.host('shop.example')).toEqual({ category: 'unclassified', vendor: null });
    expect(classifier.request('https://cdn.shop.example/app.js', 'script', 'https://shop.example/')).toEqual({
      category: 'unclassified',
      vendor: null,
    });
    expect(classifier.cookie('cart', 'shop.example', 'shop.example')).toEqual({
      category: 'unclassified',
      vendor: null,
    });
  });

  it('when a cookie has a well-known name, then the table classifies it whatever its domain; else a third-party domain is looked up', () => {
    expect(classifier.cookie('_ga', 'shop.example', 'shop.example')).toEqual({
      category: 'analytics',
      vendor: 'Google',
    });
    expect(classifier.cookie('_ga_ABC123', 'shop.example', 'www.shop.example')).toEqual({
      category: 'analytics',
      vendor: 'Google',
    });
    expect(classifier.cookie('_fbp', 'shop.example', 'shop.example')).toEqual({
      category: 'marketing',
      vendor: 'Meta',
    });
    expect(classifier.cookie('PHPSESSID', 'shop.example', 'shop.example')).toEqual({
      category: 'necessary',
      vendor: null,
    });
    expect(classifier.cookie('fr', '.facebook.com', 'shop.example')).toEqual({ category: 'marketing', vendor: 'Meta' });
  });

  it('when the tables are read, then every cookie entry names its source and every trackerdb category maps to one of ours', () => {
    for (const entry of KNOWN_COOKIES) expect(entry.source).toMatch(/^https:\/\//);
    expect(knownCookie('unknown_cookie')).toBeUndefined();
    expect(new Set(Object.values(TRACKERDB_CATEGORIES))).toEqual(
      new Set(['marketing', 'analytics', 'functional', 'necessary', 'unclassified']),
    );
  });
});

describe('site rules', () => {
  it('first party means the same registrable domain (Public Suffix List); the crawl follows the host and its subdomains only', () => {
    expect(registrableDomain('www.shop.example.co.uk')).toBe('example.co.uk');
    expect(isFirstParty('.shop.example', 'www.shop.example')).toBe(true);
    expect(isFirstParty('user.github.io', 'other.github.io')).toBe(false);
    expect(isFirstParty('facebook.net', 'shop.example')).toBe(false);
    expect(isSameSite('blog.shop.example', 'shop.example')).toBe(true);
    expect(isSameSite('shop.example', 'www.shop.example')).toBe(false);
    expect(isSameSite('evilshop.example', 'shop.example')).toBe(false);
  });
});
