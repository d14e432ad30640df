import type { Price, PriceList, Product } from '@platform/contracts';

const USD = { id: 'USD', name: 'US Dollar' };
const EUR = { id: 'EUR', name: 'Euro' };
const STANDARD: PriceList = { id: 1, code: 'STANDARD', type: 'PUBLIC' };
const PARTNER: PriceList = { id: 2, code: 'PARTNER', type: 'PARTNER' };
const EU: PriceList = { id: 3, code: 'EU', type: 'PUBLIC' };
const price = (id: number, amount: number, list: PriceList): Price => ({
  id,
  frequency: 'MONTH',
  currency: list === EU ? EUR : USD,
  price_amount: amount,
  price_list: list,
});

/**
 * A catalogue as billing-svc would serve it, for domains-svc's tests (billing-svc does not run
 * there): its copy is arranged as a fetch would leave it. The entry product comes first.
 */
export const TEST_CATALOGUE: Product[] = [
  { id: 1, code: 'FREE', name: 'Privacy Free', type: 'SUBSCRIPTION', features: [], prices: [price(101, 0, STANDARD)] },
  {
    id: 2,
    code: 'PRO',
    name: 'Privacy Pro',
    type: 'SUBSCRIPTION',
    features: [],
    prices: [price(201, 19, STANDARD), price(203, 14, PARTNER), price(205, 18, EU)],
  },
  {
    id: 3,
    code: 'ENTERPRISE',
    name: 'Privacy Enterprise',
    type: 'SUBSCRIPTION',
    features: [],
    prices: [price(301, 99, STANDARD), price(305, 92, EU)],
  },
];
