import type { Regime } from '@platform/contracts';
import type { VisitorPlace } from './geoip';
import { US_STATES } from './jurisdiction';

/** Laws that want a choice before anything optional runs (cookies and similar: ePrivacy, PECR, FADP). */
const OPT_IN_LAWS = new Set(['GDPR', 'UK_GDPR', 'FADP']);
/** The US state laws: sale, sharing and targeted advertising until the visitor opts out. */
const OPT_OUT_LAWS = new Set(Object.values(US_STATES).map((s) => s.law));

/**
 * The notice a visitor at this place is owed. An unknown place (no address, a private one, one
 * the database lacks) is OPT_IN: asking first is lawful everywhere, assuming an opt-out or a
 * notice is not, so not knowing must never lower the bar. Elsewhere a notice is enough.
 */
export function regimeOf(place: Pick<VisitorPlace, 'country' | 'jurisdiction'>): Regime {
  if (place.country === null) return 'OPT_IN';
  if (place.jurisdiction !== null && OPT_IN_LAWS.has(place.jurisdiction)) return 'OPT_IN';
  if (place.jurisdiction !== null && OPT_OUT_LAWS.has(place.jurisdiction)) return 'OPT_OUT';
  return 'NOTICE_ONLY';
}
