import { OutboundError, type OutboundErrorKind } from '@platform/outbound';
import type { ScanLimits } from './types';

/**
 * Why a page (or a request of it) failed, as the report says it. Messages are fixed texts: a
 * report is read by partners, so it never names an address the policy refused, nor what a name
 * resolved to inside our network.
 */
export type ScanErrorCode =
  | 'SCAN.ADDRESS_REFUSED'
  | 'SCAN.DNS_FAILED'
  | 'SCAN.CONNECT_FAILED'
  | 'SCAN.TLS_FAILED'
  | 'SCAN.TIMEOUT'
  | 'SCAN.TOO_LARGE'
  | 'SCAN.TOO_MANY_REDIRECTS'
  | 'SCAN.INVALID_REDIRECT'
  | 'SCAN.OFF_SITE_NAVIGATION'
  | 'SCAN.BAD_RESPONSE'
  | 'SCAN.HTTP_STATUS'
  | 'SCAN.ABORTED'
  | 'SCAN.BROWSER_FAILED'
  | 'SCAN.INVALID_TARGET';

export class ScanError extends Error {
  /** A page answered but its scripts kept the browser busy to the page's deadline (the scan may go on in http mode). */
  readonly heldBrowser: boolean;

  constructor(
    readonly code: ScanErrorCode,
    message: string,
    options: { cause?: unknown; heldBrowser?: boolean } = {},
  ) {
    super(message, options);
    this.name = 'ScanError';
    this.heldBrowser = options.heldBrowser ?? false;
  }
}

const BY_KIND: Record<OutboundErrorKind, (limits: ScanLimits) => ScanError> = {
  blocked_address: () =>
    new ScanError(
      'SCAN.ADDRESS_REFUSED',
      'The host is, or resolves to, an address that may not be contacted; nothing was sent.',
    ),
  dns: () => new ScanError('SCAN.DNS_FAILED', 'The host name did not resolve.'),
  connect: () => new ScanError('SCAN.CONNECT_FAILED', 'No connection could be made.'),
  tls: () => new ScanError('SCAN.TLS_FAILED', 'The TLS handshake failed (certificate or protocol).'),
  timeout: (l) => new ScanError('SCAN.TIMEOUT', `No complete answer within ${l.pageTimeoutMs} ms.`),
  redirect: (l) => new ScanError('SCAN.TOO_MANY_REDIRECTS', `More than ${l.maxRedirects} redirects.`),
  invalid_url: () => new ScanError('SCAN.INVALID_REDIRECT', 'A redirect pointed to a URL that is not http(s).'),
  response: () => new ScanError('SCAN.BAD_RESPONSE', 'The answer broke off or was not HTTP.'),
  aborted: () => new ScanError('SCAN.ABORTED', 'The scan was stopped.'),
};

/** The ScanError for whatever a fetch threw. */
export function scanErrorOf(err: unknown, limits: ScanLimits): ScanError {
  if (err instanceof ScanError) return err;
  if (err instanceof OutboundError) return Object.assign(BY_KIND[err.kind](limits), { cause: err });
  return new ScanError('SCAN.BAD_RESPONSE', 'The answer could not be read.', { cause: err });
}

export const tooLarge = (limits: ScanLimits) =>
  new ScanError('SCAN.TOO_LARGE', `The answer is larger than ${limits.maxPageBytes} bytes.`);
export const tooManyRedirects = (limits: ScanLimits) =>
  new ScanError('SCAN.TOO_MANY_REDIRECTS', `More than ${limits.maxRedirects} redirects.`);
export const offSiteNavigation = () =>
  new ScanError('SCAN.OFF_SITE_NAVIGATION', 'A script on the page navigated away from the site; it was not followed.');
export const pageTimeout = (limits: ScanLimits) =>
  new ScanError('SCAN.TIMEOUT', `The page did not load within ${limits.pageTimeoutMs} ms.`);
export const pageHeldBrowser = (limits: ScanLimits) =>
  new ScanError('SCAN.TIMEOUT', `The page answered but did not finish loading within ${limits.pageTimeoutMs} ms.`, {
    heldBrowser: true,
  });
