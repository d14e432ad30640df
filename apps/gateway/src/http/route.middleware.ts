import type { RequestHandler, Response } from 'express';
import { errorObject, matchRoute, type CompiledRoute } from '@platform/contracts';
import { sendError } from '@platform/http';
import { apiKeyOf } from './authenticate.middleware';

export const routeOf = (res: Response): CompiledRoute => res.locals.route as CompiledRoute;

const pathOf = (url: string) => {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
};

/** Finds the route in the table (404 / 405 with Allow) and checks the key holds its permission (403). */
export function routeAndAuthorise(routes: CompiledRoute[]): RequestHandler {
  return (req, res, next) => {
    const match = matchRoute(routes, req.method, pathOf(req.originalUrl));
    if (match.kind === 'not_found') return sendError(res, errorObject('ROUTE.NOT_FOUND'));
    if (match.kind === 'method_not_allowed') {
      const allowed = match.allowed.map((m) => m.toUpperCase());
      return sendError(res, errorObject('ROUTE.METHOD_NOT_ALLOWED', undefined, { allowed }), { Allow: allowed.join(', ') });
    }
    const required = match.route.spec.permission;
    if (!apiKeyOf(res).permissions.includes(required)) {
      return sendError(res, errorObject('AUTH.FORBIDDEN', `The API key lacks the permission ${required}.`, { required }));
    }
    res.locals.route = match.route;
    next();
  };
}
