import { CookieJar, type Cookie } from 'tough-cookie';
import type { CookieStore } from './fetch';
import type { SeenCookie } from './findings';

/** A jar that takes cookies the way browsers do (RFC 6265: domain, path, public suffixes refused); `.test` names allowed for local sites. */
export function newCookieJar(): CookieJar {
  return new CookieJar(undefined, { allowSpecialUseDomain: true, rejectPublicSuffixes: true, looseMode: true });
}

/** When a cookie expires, or null for a session cookie. */
export function expiryOf(cookie: Cookie): Date | null {
  const time = cookie.expiryTime();
  return time !== undefined && Number.isFinite(time) ? new Date(time) : null;
}

export function seenCookie(cookie: Cookie): SeenCookie {
  return { name: cookie.key, domain: cookie.domain ?? '', expiresAt: expiryOf(cookie) };
}

/**
 * A CookieStore on a tough-cookie jar: what http mode sends and finds. `onStored` sees each cookie
 * the jar accepted (browser mode hands it on to Chromium).
 */
export function jarCookieStore(jar: CookieJar, onStored?: (cookie: Cookie, url: string) => Promise<void>): CookieStore {
  return {
    async header(url) {
      return (await jar.getCookieString(url)) || undefined;
    },
    async store(url, setCookies) {
      for (const header of setCookies) {
        const cookie = await jar.setCookie(header, url, { ignoreError: true });
        if (cookie && onStored) await onStored(cookie, url);
      }
    },
  };
}
