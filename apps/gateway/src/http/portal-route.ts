import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  errorObject,
  matchRoute,
  type CompiledRoute,
  type Permission,
  type RouteSpec,
  type ServiceName,
} from '@platform/contracts';
import { sendError } from '@platform/http';
import type { KeyRecord } from '../domain/key-authenticator';

/** The operation a /portal request was routed to (for metrics and the access log). */
export const routedOperation = new WeakMap<ServerResponse, string>();

const pathOf = (url: string) => {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
};

/**
 * The route a request names and its path params, when the key holds its permission; otherwise
 * undefined once 404, 405 (with Allow) or 403 has been sent. HEAD is routed as GET (the service
 * answers it the same).
 */
export function permittedRoute(
  routes: CompiledRoute[],
  req: IncomingMessage,
  res: ServerResponse,
  key: KeyRecord,
): { spec: RouteSpec; params: Record<string, string> } | undefined {
  const method = req.method ?? 'GET';
  const found = matchRoute(routes, method === 'HEAD' ? 'GET' : method, pathOf(req.url ?? '/'));
  if (found.kind === 'not_found') return void sendError(res, errorObject('ROUTE.NOT_FOUND'));
  if (found.kind === 'method_not_allowed') {
    const allowed = found.allowed.flatMap((m) => (m === 'get' ? ['GET', 'HEAD'] : [m.toUpperCase()]));
    return void sendError(res, errorObject('ROUTE.METHOD_NOT_ALLOWED', undefined, { allowed }), {
      Allow: allowed.join(', '),
    });
  }
  const spec = found.route.spec;
  routedOperation.set(res, spec.operationId);
  // A public route (no permission) is never served under /portal.
  if (spec.permission === undefined) return void sendError(res, errorObject('ROUTE.NOT_FOUND'));
  // Key, team, template and settings management is for signed-in users (the portal), never a key;
  // the gateway's other routes (the customer's access users) are open to keys.
  if (spec.userOnly)
    return void sendError(
      res,
      errorObject('AUTH.FORBIDDEN', 'Only a signed-in portal user may do this; API keys may not.'),
    );
  if (!key.permissions.includes(spec.permission as Permission)) {
    return void sendError(
      res,
      errorObject('AUTH.FORBIDDEN', `The API key lacks the permission ${spec.permission}.`, {
        required: spec.permission,
      }),
    );
  }
  return { spec, params: found.params };
}

/** A route a service answers (the gateway's own are never forwarded). */
export type ForwardedRoute = RouteSpec & { service: ServiceName };
