// The regimes a visitor's notice follows, decided on the server (libs/geo regimeOf) from the visitor's
// place or pinned by the property. No zod here: the widget's loader and bundle import this file alone
// (@platform/contracts/widget-regime), so the vocabulary and the Consent Mode regions are one source.

/** OPT_IN: nothing optional before a choice; OPT_OUT: everything runs until the visitor opts out; NOTICE_ONLY: a notice, everything runs. */
export const REGIMES = ['OPT_IN', 'OPT_OUT', 'NOTICE_ONLY'] as const;
export type Regime = (typeof REGIMES)[number];

/** A property's setting: AUTO (each visitor's regime from their place) or one regime for everyone. */
export const PROPERTY_REGIMES = ['AUTO', ...REGIMES] as const;
export type PropertyRegime = (typeof PROPERTY_REGIMES)[number];

/**
 * The US states with a comprehensive privacy law in force (as of 2026-11), as ISO 3166-2 codes:
 * their visitors get OPT_OUT, and the loader's Consent Mode defaults grant storage there (`region`).
 * libs/geo's US_STATES names the same states with their law (a unit test keeps the two equal).
 */
export const OPT_OUT_REGIONS = [
  'US-CA',
  'US-VA',
  'US-CO',
  'US-CT',
  'US-UT',
  'US-TX',
  'US-OR',
  'US-MT',
  'US-IA',
  'US-DE',
  'US-NH',
  'US-NJ',
  'US-NE',
  'US-TN',
  'US-MN',
  'US-MD',
  'US-IN',
  'US-KY',
  'US-RI',
];
