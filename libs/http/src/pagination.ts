import { paginationMeta, type PaginationMeta } from '@platform/contracts';
import { validationError } from './errors';

/**
 * The deepest row a paginated list serves (page × limit). Offsets cost a scan of every row
 * before them; past this, a partner narrows the list with filters (e.g. created_at_end) instead.
 */
const MAX_LIST_DEPTH = 100_000;

/** Offset for a 1-based page. */
const pageOffset = (page: number, limit: number) => (page - 1) * limit;

/** Rows were fetched with limit + 1: trims the extra one and says whether another page exists. */
function takePage<T>(rows: T[], limit: number): { items: T[]; hasMore: boolean } {
  return { items: rows.slice(0, limit), hasMore: rows.length > limit };
}

/**
 * One page of any list: refuses pages past MAX_LIST_DEPTH (400 naming query.page), fetches
 * limit + 1 rows at the page's offset, and answers the items with the contract's meta.
 */
export async function listPage<T>(
  query: { page: number; limit: number },
  fetch: (window: { offset: number; limitPlusOne: number }) => Promise<T[]>,
): Promise<{ items: T[]; meta: PaginationMeta }> {
  if (query.page * query.limit > MAX_LIST_DEPTH) {
    throw validationError([
      {
        path: 'query.page',
        message: `page × limit may be at most ${MAX_LIST_DEPTH}; narrow the list with filters (e.g. created_at_end) to go further back`,
      },
    ]);
  }
  const rows = await fetch({ offset: pageOffset(query.page, query.limit), limitPlusOne: query.limit + 1 });
  const { items, hasMore } = takePage(rows, query.limit);
  return { items, meta: paginationMeta(query.page, hasMore) };
}
