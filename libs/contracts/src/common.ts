import { z } from 'zod';

/** Query-string integer: digits only, so "1.5", "1e3", "" and arrays are rejected, not coerced. */
export const queryInt = () =>
  z
    .string()
    .regex(/^\d{1,9}$/, 'must be an integer')
    .transform(Number);

/** Query-string boolean: true/false, also 1/0; anything else is a 400. */
export const queryBool = () =>
  z.enum(['true', 'false', '1', '0'], { message: 'must be true or false' }).transform((v) => v === 'true' || v === '1');

/** ISO 8601 date-time with an offset or Z. */
export const dateTime = () => z.iso.datetime({ offset: true });

export const PAGE_LIMIT_MAX = 100;

export const paginationQuerySchema = z.object({
  page: queryInt().pipe(z.number().int().min(1, 'must be at least 1')).default(1).meta({ description: 'Page number, from 1' }),
  limit: queryInt()
    .pipe(z.number().int().min(1, 'must be at least 1').max(PAGE_LIMIT_MAX, `must be at most ${PAGE_LIMIT_MAX}`))
    .default(10)
    .meta({ description: `Results per page, 1 to ${PAGE_LIMIT_MAX}` }),
});
export type PaginationQuery = z.output<typeof paginationQuerySchema>;

export const paginationMetaSchema = z
  .object({
    current_page: z.number().int(),
    next_page: z.number().int().optional().meta({ description: 'Present only when another page exists' }),
    prev_page: z.number().int().optional().meta({ description: 'Present only past the first page' }),
  })
  .meta({ id: 'PaginationMeta' });
export type PaginationMeta = z.infer<typeof paginationMetaSchema>;

/** meta for a page; hasMore comes from fetching limit + 1 rows. */
export function paginationMeta(page: number, hasMore: boolean): PaginationMeta {
  return {
    current_page: page,
    ...(hasMore ? { next_page: page + 1 } : {}),
    ...(page > 1 ? { prev_page: page - 1 } : {}),
  };
}

export const resultOf = <T extends z.ZodType>(schema: T) => z.object({ result: schema });
export const pageOf = <T extends z.ZodType>(item: T) => z.object({ meta: paginationMetaSchema, result: z.array(item) });
export const emptyResultSchema = z.object({ result: z.object({}).strict() });
