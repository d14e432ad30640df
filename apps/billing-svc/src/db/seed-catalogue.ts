import type { Price, PriceList, Product } from '@platform/contracts';

const USD = { id: 'USD', name: 'US Dollar' };
const EUR = { id: 'EUR', name: 'Euro' };
const GBP = { id: 'GBP', name: 'Pound Sterling' };
const STANDARD: PriceList = { id: 1, code: 'STANDARD', type: 'PUBLIC' };
const PARTNER: PriceList = { id: 2, code: 'PARTNER', type: 'PARTNER' };
const EU: PriceList = { id: 3, code: 'EU', type: 'PUBLIC' };
const UK: PriceList = { id: 4, code: 'UK', type: 'PUBLIC' };
const CURRENCY_OF: Record<string, Price['currency']> = { STANDARD: USD, PARTNER: USD, EU: EUR, UK: GBP };

const price = (id: number, frequency: Price['frequency'], amount: number, list: PriceList): Price => ({
  id,
  frequency,
  currency: CURRENCY_OF[list.code],
  price_amount: amount,
  price_list: list,
});

/**
 * The catalogue every installation starts with (billing-svc owns it; other services read it from
 * GET /portal/products). The entry product comes first: domains without a product get it.
 */
export const SEED_CATALOGUE: readonly Product[] = [
  {
    id: 1,
    code: 'FREE',
    name: 'Privacy Free',
    type: 'SUBSCRIPTION',
    features: ['cookie_consent', 'privacy_center'],
    prices: [
      price(101, 'MONTH', 0, STANDARD),
      price(102, 'MONTH', 0, PARTNER),
      price(105, 'MONTH', 0, EU),
      price(106, 'MONTH', 0, UK),
    ],
  },
  {
    id: 2,
    code: 'PRO',
    name: 'Privacy Pro',
    type: 'SUBSCRIPTION',
    features: ['cookie_consent', 'privacy_center', 'dsar', 'legal_documents', 'accessibility'],
    prices: [
      price(201, 'MONTH', 19, STANDARD),
      price(202, 'YEAR', 190, STANDARD),
      price(203, 'MONTH', 14, PARTNER),
      price(204, 'YEAR', 140, PARTNER),
      price(205, 'MONTH', 18, EU),
      price(206, 'YEAR', 180, EU),
      price(207, 'MONTH', 15, UK),
      price(208, 'YEAR', 150, UK),
    ],
  },
  {
    id: 3,
    code: 'ENTERPRISE',
    name: 'Privacy Enterprise',
    type: 'SUBSCRIPTION',
    features: [
      'cookie_consent',
      'privacy_center',
      'dsar',
      'legal_documents',
      'accessibility',
      'continuous_scanning',
      'dpo',
    ],
    prices: [
      price(301, 'MONTH', 99, STANDARD),
      price(302, 'YEAR', 990, STANDARD),
      price(303, 'YEAR', 790, PARTNER),
      price(305, 'MONTH', 92, EU),
      price(306, 'YEAR', 920, EU),
    ],
  },
  {
    id: 4,
    code: 'AUDIT',
    name: 'Privacy Audit',
    type: 'ONE_OFF',
    features: ['scan_report'],
    prices: [price(401, 'MONTH', 49, STANDARD), price(405, 'MONTH', 45, EU)],
  },
];
