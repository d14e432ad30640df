import type { ColumnType } from 'kysely';

export const SCHEMA = 'billing';

interface CurrenciesTable {
  id: string;
  name: string;
}

interface PriceListsTable {
  id: number;
  code: string;
  type: string;
}

interface ProductsTable {
  id: number;
  code: string;
  name: string;
  type: 'SUBSCRIPTION' | 'ONE_OFF';
  features: string[];
}

interface PricesTable {
  id: number;
  product_id: number;
  price_list_id: number;
  frequency: 'MONTH' | 'YEAR';
  currency_id: string;
  /** numeric(12,2), read as text by pg: converted in the repository. */
  amount: string;
}

export interface SubscriptionsTable {
  id: string;
  partner_id: string;
  domain_id: string;
  status: string;
  product_id: number;
  price_list_id: number;
  price_id: number;
  start_date: ColumnType<Date, Date | string, Date | string>;
  end_date: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  created_at: ColumnType<Date, Date | string | undefined, Date | string>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface BillingDb {
  subscriptions: SubscriptionsTable;
  currencies: CurrenciesTable;
  price_lists: PriceListsTable;
  products: ProductsTable;
  prices: PricesTable;
}
