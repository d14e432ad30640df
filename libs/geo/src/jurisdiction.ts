/** EU member states and the EEA's other three: the GDPR applies. */
const GDPR_COUNTRIES = new Set([
  'AT',
  'BE',
  'BG',
  'HR',
  'CY',
  'CZ',
  'DK',
  'EE',
  'FI',
  'FR',
  'DE',
  'GR',
  'HU',
  'IE',
  'IT',
  'LV',
  'LT',
  'LU',
  'MT',
  'NL',
  'PL',
  'PT',
  'RO',
  'SK',
  'SI',
  'ES',
  'SE',
  'IS',
  'LI',
  'NO',
]);

/** Laws that follow from the country alone. */
const BY_COUNTRY: Record<string, string> = {
  GB: 'UK_GDPR',
  CH: 'FADP',
  BR: 'LGPD',
  CA: 'PIPEDA',
  ZA: 'POPIA',
  JP: 'APPI',
  IN: 'DPDPA',
};

/**
 * US states with a comprehensive privacy law in force (as of 2026-11), by the region name the
 * GeoIP database gives: the law's code (recorded as the jurisdiction) and the state's ISO 3166-2
 * code (contracts' OPT_OUT_REGIONS, the Consent Mode regions, lists the same). Codes two states'
 * laws would share (Montana's and Minnesota's MCDPA, Iowa's and Indiana's ICDPA, Delaware's DPDPA
 * and India's) carry the state's prefix.
 */
export const US_STATES: Record<string, { law: string; region: string }> = {
  California: { law: 'CCPA', region: 'US-CA' },
  Virginia: { law: 'VCDPA', region: 'US-VA' },
  Colorado: { law: 'CPA', region: 'US-CO' },
  Connecticut: { law: 'CTDPA', region: 'US-CT' },
  Utah: { law: 'UCPA', region: 'US-UT' },
  Texas: { law: 'TDPSA', region: 'US-TX' },
  Oregon: { law: 'OCPA', region: 'US-OR' },
  Montana: { law: 'MTCDPA', region: 'US-MT' },
  Iowa: { law: 'IACDPA', region: 'US-IA' },
  Delaware: { law: 'DEDPDPA', region: 'US-DE' },
  'New Hampshire': { law: 'NHPA', region: 'US-NH' },
  'New Jersey': { law: 'NJDPA', region: 'US-NJ' },
  Nebraska: { law: 'NDPA', region: 'US-NE' },
  Tennessee: { law: 'TIPA', region: 'US-TN' },
  Minnesota: { law: 'MNCDPA', region: 'US-MN' },
  Maryland: { law: 'MODPA', region: 'US-MD' },
  Indiana: { law: 'INCDPA', region: 'US-IN' },
  Kentucky: { law: 'KCDPA', region: 'US-KY' },
  'Rhode Island': { law: 'RIDTPPA', region: 'US-RI' },
};

/** The privacy law of a visitor's place, or null when none we name applies or the place is unknown. */
export function jurisdictionOf(country: string | null, region: string | null): string | null {
  if (country === null) return null;
  if (GDPR_COUNTRIES.has(country)) return 'GDPR';
  if (country === 'US') return (region !== null && US_STATES[region]?.law) || null;
  return BY_COUNTRY[country] ?? null;
}
