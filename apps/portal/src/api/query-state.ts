// What a list or a screen shows of one query: that it loads, why it failed (in the portal's words), and "Try again".
import { errorMessage } from './errors';

interface QueryLike {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  refetch: () => unknown;
}

export const queryState = (query: QueryLike) => ({
  loading: query.isPending,
  error: query.isError ? errorMessage(query.error) : undefined,
  onRetry: () => void query.refetch(),
});
