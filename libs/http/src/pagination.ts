export { paginationMeta } from '@platform/contracts';

/** Offset for a 1-based page. */
export const pageOffset = (page: number, limit: number) => (page - 1) * limit;

/** Rows were fetched with limit + 1: trims the extra one and says whether another page exists. */
export function takePage<T>(rows: T[], limit: number): { items: T[]; hasMore: boolean } {
  return { items: rows.slice(0, limit), hasMore: rows.length > limit };
}
