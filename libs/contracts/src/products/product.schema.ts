import { z } from 'zod';

export const productTypeSchema = z.enum(['SUBSCRIPTION', 'ONE_OFF']);
export const priceFrequencySchema = z.enum(['MONTH', 'YEAR']);

export const priceListSchema = z
  .object({ id: z.number().int(), code: z.string(), type: z.string() })
  .meta({ id: 'PriceList' });

export const priceSchema = z
  .object({
    id: z.number().int(),
    frequency: priceFrequencySchema,
    currency: z.object({ id: z.string(), name: z.string() }),
    price_amount: z.number(),
    price_list: priceListSchema,
  })
  .meta({ id: 'Price' });

export const productSchema = z
  .object({
    id: z.number().int(),
    code: z.string(),
    name: z.string(),
    type: productTypeSchema,
    features: z.array(z.string()),
    prices: z.array(priceSchema),
  })
  .meta({ id: 'Product' });

export type Product = z.infer<typeof productSchema>;
export type Price = z.infer<typeof priceSchema>;
export type PriceList = z.infer<typeof priceListSchema>;
