import type { InstallCheck } from '@platform/contracts';
import { notFound } from '@platform/http';
import type { HomePage, HomePageReader, PageScript } from '@platform/scanner';
import type { DomainsContext } from '../context';
import { findDomainDetail } from '../domains/db/domain-reads.repository';
import { assertDomainId } from '../domains/domain/domain-rules';

type Verdict = Omit<InstallCheck, 'domain_id' | 'checked_at'>;

/** The loader's path in every property's snippet (widget-snippet.ts), whatever host serves it. */
const loaderPath = (propertyId: string) => `/widget/v1/${propertyId}/loader.js`.toLowerCase();

const isSnippet = (script: PageScript, propertyId: string) =>
  script.src !== null && new URL(script.src).pathname.toLowerCase().endsWith(loaderPath(propertyId));

const TRY_AGAIN = 'check that the site is up and try again';

/** Why the page could not be checked: it did not answer, or answered with no page. */
function unreachable(url: string, why: string): Verdict {
  return {
    url,
    status: 'UNREACHABLE',
    snippet_found: false,
    first_in_head: false,
    message: `The home page ${why}; ${TRY_AGAIN}.`,
  };
}

/**
 * What the home page says about the property's snippet: INSTALLED when it is in <head> and no
 * script a browser runs comes before it (inline or not); NOT_FIRST_IN_HEAD when one does, or it
 * is in <body>; NOT_FOUND; UNREACHABLE when the page could not be read or answered no 2xx.
 */
export function installVerdict(page: HomePage, propertyId: string): Verdict {
  if (!page.ok) return unreachable(page.url, `could not be read (${page.message.replace(/\.$/, '')})`);
  if (page.status < 200 || page.status >= 300) return unreachable(page.url, `answered HTTP ${page.status}, not a page`);
  const at = page.scripts.findIndex((s) => isSnippet(s, propertyId));
  const found = { url: page.url, snippet_found: true };
  if (at === -1)
    return {
      url: page.url,
      status: 'NOT_FOUND',
      snippet_found: false,
      first_in_head: false,
      message:
        'The snippet is not on the home page; paste it at the top of <head> (one a tag manager adds while the page runs cannot be seen here).',
    };
  if (!page.scripts[at].inHead)
    return {
      ...found,
      status: 'NOT_FIRST_IN_HEAD',
      first_in_head: false,
      message: 'The snippet is on the page but not in <head>; move it to the top of <head> so it runs first.',
    };
  // Scripts before it in document order are in <head> too (it is); only those a browser runs count.
  const before = page.scripts.slice(0, at).filter((s) => s.runs).length;
  if (before > 0)
    return {
      ...found,
      status: 'NOT_FIRST_IN_HEAD',
      first_in_head: false,
      message: `The snippet is in <head>, but ${before === 1 ? '1 other script comes' : `${before} other scripts come`} before it; move it to the top of <head> so it runs first.`,
    };
  return {
    ...found,
    status: 'INSTALLED',
    first_in_head: true,
    message: 'The snippet is the first script in <head>: the widget runs before any other script.',
  };
}

/** GET .../install-check: reads the partner's domain's home page now; 404 for a domain of another partner. */
export async function checkInstall(
  ctx: Pick<DomainsContext, 'db'>,
  reader: HomePageReader,
  partnerId: string,
  domainId: string,
  now: () => Date = () => new Date(),
): Promise<InstallCheck> {
  const domain = await findDomainDetail(ctx.db, partnerId, assertDomainId(domainId));
  if (!domain) throw notFound('domain');
  const page = await reader.read(domain.hostname);
  return { domain_id: domain.id, ...installVerdict(page, domain.property_id), checked_at: now().toISOString() };
}
