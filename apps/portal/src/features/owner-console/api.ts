// The owner console's routes (libs/contracts' ownerConsoleRoutes) and its query keys: a domain's keys
// sit under ['owner', domainId], so a save refreshes what it touches and nothing of another domain.
import { ownerConsoleRoutes, routeOf } from '@platform/contracts';
import { ApiError } from '../../api/client';
import { errorMessage } from '../../api/errors';

type OperationId = (typeof ownerConsoleRoutes)[number]['operationId'];

export const ownerRoute = <K extends OperationId>(operationId: K) => routeOf(ownerConsoleRoutes, operationId);

export const ownerKeys = {
  domain: (domainId: string) => ['owner', domainId] as const,
  of: (domainId: string, what: string, ...rest: unknown[]) => ['owner', domainId, what, ...rest] as const,
  users: ['owner', 'users'] as const,
};

/** A download route's address with its path parameters and query (a plain link: the session cookie goes with it). */
export function downloadHref(
  route: { path: string },
  params: Record<string, string>,
  query: Record<string, string | undefined> = {},
): string {
  const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
  const search = new URLSearchParams(Object.entries(query).filter((e): e is [string, string] => !!e[1]));
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}

/** The portal's words for a failed call, but a 403 speaks of the account's roles (its admins and owner), not the partner's. */
export const ownerErrorMessage = (error: unknown): string =>
  error instanceof ApiError && error.code === 'AUTH.FORBIDDEN'
    ? 'Your role in this account does not allow this. Ask an admin or the owner of your account.'
    : errorMessage(error);
