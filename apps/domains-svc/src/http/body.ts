import type { Request } from 'express';
import { hasBody } from '@platform/http';

/**
 * Express 5's JSON parser leaves `{}` on requests without a body, so "body required" is
 * decided from the headers: without one, the body is parsed as undefined (-> 400 "Required").
 */
export const bodyOf = (req: Request) => ({ params: req.params, query: req.query, body: hasBody(req.headers) ? req.body : undefined });
