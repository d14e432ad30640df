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

/** US states with a comprehensive privacy law, by the region name the GeoIP database gives. */
const US_STATES: Record<string, string> = {
  California: 'CCPA',
  Virginia: 'VCDPA',
  Colorado: 'CPA',
  Connecticut: 'CTDPA',
  Utah: 'UCPA',
};

/** The privacy law of a visitor's place, or null when none we name applies or the place is unknown. */
export function jurisdictionOf(country: string | null, region: string | null): string | null {
  if (country === null) return null;
  if (GDPR_COUNTRIES.has(country)) return 'GDPR';
  if (country === 'US') return (region !== null && US_STATES[region]) || null;
  return BY_COUNTRY[country] ?? null;
}
