import type { FindingCategory } from '@platform/contracts';

/**
 * Well-known cookie names, each from its maker's own documentation (the `source`), for cookies
 * the tracker database cannot name (it classifies hosts, not cookie names: a first-party `_ga`
 * is set on the site's own domain by Google's script). `prefix` entries match names that start
 * with `name` (`_ga_<container-id>`). Nothing is guessed: a name not listed here is classified
 * by its domain (tracker database) or stays `unclassified`.
 */
export interface KnownCookie {
  name: string;
  prefix?: boolean;
  category: FindingCategory;
  vendor: string;
  source: string;
}

const GA = 'https://developers.google.com/analytics/devguides/collection/analyticsjs/cookie-usage';
const GOOGLE_ADS = 'https://business.safety.google/adscookies/';
const META = 'https://www.facebook.com/policies/cookies/';
const HOTJAR = 'https://help.hotjar.com/hc/en-us/articles/6952777582999-Cookies-Set-by-the-Hotjar-Tracking-Code';
const CLARITY = 'https://learn.microsoft.com/en-us/clarity/setup-and-installation/cookie-list';
const BING = 'https://help.ads.microsoft.com/#apex/ads/en/56960/1';
const CLOUDFLARE = 'https://developers.cloudflare.com/fundamentals/reference/policies-compliances/cloudflare-cookies/';
const STRIPE = 'https://stripe.com/cookie-settings';
const WORDPRESS = 'https://developer.wordpress.org/advanced-administration/wordpress/cookies/';
const LINKEDIN = 'https://www.linkedin.com/legal/l/cookie-table';
const HUBSPOT =
  'https://knowledge.hubspot.com/privacy-and-consent/what-cookies-does-hubspot-set-in-a-visitor-s-browser';

export const KNOWN_COOKIES: readonly KnownCookie[] = [
  // Google Analytics (analytics.js / gtag.js)
  { name: '_ga_', prefix: true, category: 'analytics', vendor: 'Google', source: GA },
  { name: '_ga', category: 'analytics', vendor: 'Google', source: GA },
  { name: '_gid', category: 'analytics', vendor: 'Google', source: GA },
  { name: '_gat', prefix: true, category: 'analytics', vendor: 'Google', source: GA },
  { name: '__utm', prefix: true, category: 'analytics', vendor: 'Google', source: GA },
  // Google Ads conversion linker and DoubleClick
  { name: '_gcl_', prefix: true, category: 'marketing', vendor: 'Google', source: GOOGLE_ADS },
  { name: 'IDE', category: 'marketing', vendor: 'Google', source: GOOGLE_ADS },
  { name: 'test_cookie', category: 'marketing', vendor: 'Google', source: GOOGLE_ADS },
  // Meta pixel
  { name: '_fbp', category: 'marketing', vendor: 'Meta', source: META },
  { name: '_fbc', category: 'marketing', vendor: 'Meta', source: META },
  // Microsoft Advertising (UET) and Clarity
  { name: '_uetsid', category: 'marketing', vendor: 'Microsoft', source: BING },
  { name: '_uetvid', category: 'marketing', vendor: 'Microsoft', source: BING },
  { name: '_clck', category: 'analytics', vendor: 'Microsoft', source: CLARITY },
  { name: '_clsk', category: 'analytics', vendor: 'Microsoft', source: CLARITY },
  // Hotjar
  { name: '_hjSessionUser_', prefix: true, category: 'analytics', vendor: 'Hotjar', source: HOTJAR },
  { name: '_hjSession_', prefix: true, category: 'analytics', vendor: 'Hotjar', source: HOTJAR },
  // LinkedIn Insight tag
  { name: 'li_fat_id', category: 'marketing', vendor: 'LinkedIn', source: LINKEDIN },
  { name: 'bcookie', category: 'marketing', vendor: 'LinkedIn', source: LINKEDIN },
  // HubSpot
  { name: 'hubspotutk', category: 'marketing', vendor: 'HubSpot', source: HUBSPOT },
  { name: '__hstc', category: 'marketing', vendor: 'HubSpot', source: HUBSPOT },
  { name: '__hssc', category: 'analytics', vendor: 'HubSpot', source: HUBSPOT },
  // Security and payments (the site does not work without them)
  { name: '__cf_bm', category: 'necessary', vendor: 'Cloudflare', source: CLOUDFLARE },
  { name: 'cf_clearance', category: 'necessary', vendor: 'Cloudflare', source: CLOUDFLARE },
  { name: '__stripe_mid', category: 'necessary', vendor: 'Stripe', source: STRIPE },
  { name: '__stripe_sid', category: 'necessary', vendor: 'Stripe', source: STRIPE },
  // Default session cookies of web frameworks: necessary, the site's own (no vendor)
  {
    name: 'PHPSESSID',
    category: 'necessary',
    vendor: '',
    source: 'https://www.php.net/manual/en/session.configuration.php#ini.session.name',
  },
  {
    name: 'JSESSIONID',
    category: 'necessary',
    vendor: '',
    source: 'https://jakarta.ee/specifications/servlet/6.0/jakarta-servlet-spec-6.0#session-tracking-mechanisms',
  },
  {
    name: 'ASP.NET_SessionId',
    category: 'necessary',
    vendor: '',
    source: 'https://learn.microsoft.com/en-us/dotnet/api/system.web.configuration.sessionstatesection.cookiename',
  },
  {
    name: 'laravel_session',
    category: 'necessary',
    vendor: '',
    source: 'https://laravel.com/docs/session#configuration',
  },
  { name: 'XSRF-TOKEN', category: 'necessary', vendor: '', source: 'https://laravel.com/docs/csrf#csrf-x-xsrf-token' },
  {
    name: 'csrftoken',
    category: 'necessary',
    vendor: '',
    source: 'https://docs.djangoproject.com/en/stable/ref/settings/#csrf-cookie-name',
  },
  {
    name: 'sessionid',
    category: 'necessary',
    vendor: '',
    source: 'https://docs.djangoproject.com/en/stable/ref/settings/#session-cookie-name',
  },
  { name: 'wordpress_logged_in_', prefix: true, category: 'necessary', vendor: '', source: WORDPRESS },
  { name: 'wordpress_sec_', prefix: true, category: 'necessary', vendor: '', source: WORDPRESS },
  { name: 'wordpress_test_cookie', category: 'necessary', vendor: '', source: WORDPRESS },
  { name: 'wp-settings-', prefix: true, category: 'functional', vendor: '', source: WORDPRESS },
  // Consent managers store the visitor's choice
  {
    name: 'CookieConsent',
    category: 'necessary',
    vendor: 'Cookiebot',
    source: 'https://www.cookiebot.com/en/cookie-declaration/',
  },
  {
    name: 'OptanonConsent',
    category: 'necessary',
    vendor: 'OneTrust',
    source: 'https://my.onetrust.com/s/article/UUID-2dc719a8-4be5-8d16-1dc8-c7b4147b88e0',
  },
  {
    name: 'OptanonAlertBoxClosed',
    category: 'necessary',
    vendor: 'OneTrust',
    source: 'https://my.onetrust.com/s/article/UUID-2dc719a8-4be5-8d16-1dc8-c7b4147b88e0',
  },
];

const exact = new Map(KNOWN_COOKIES.filter((c) => !c.prefix).map((c) => [c.name, c]));
/** Longest prefix first, so `_ga_` wins over a shorter one. */
const prefixes = KNOWN_COOKIES.filter((c) => c.prefix).sort((a, b) => b.name.length - a.name.length);

export function knownCookie(name: string): KnownCookie | undefined {
  return exact.get(name) ?? prefixes.find((c) => name.startsWith(c.name));
}
