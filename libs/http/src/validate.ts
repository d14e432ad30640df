import type { IncomingHttpHeaders } from 'node:http';
import type { z } from 'zod';
import { unstorableTextIssues } from '@platform/contracts';
import { issuesOf, validationError } from './errors';
import { hasBody } from './middleware';

export interface RequestParts {
  params?: unknown;
  query?: unknown;
  body?: unknown;
  /** When given, a request without a body has body undefined (Express 5 leaves {} there). */
  headers?: IncomingHttpHeaders;
}

const bodyOf = (req: RequestParts) => (req.headers && !hasBody(req.headers) ? undefined : (req.body ?? undefined));

/** Validates params, query and body together so the partner sees every issue in one answer. */
export function parseRequest<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType>(
  req: RequestParts,
  schemas: { params?: P; query?: Q; body?: B },
): { params: z.output<P>; query: z.output<Q>; body: z.output<B> } {
  const issues: { path: string; message: string }[] = [];
  const out: Record<string, unknown> = {};
  for (const location of ['params', 'query', 'body'] as const) {
    const schema = schemas[location];
    if (!schema) continue;
    const input = location === 'body' ? bodyOf(req) : req[location];
    // Text PostgreSQL cannot store is refused for every route, whatever its schema says.
    const unstorable = unstorableTextIssues(input, location);
    if (unstorable.length > 0) {
      issues.push(...unstorable);
      continue;
    }
    const parsed = schema.safeParse(input);
    if (parsed.success) out[location] = parsed.data;
    else issues.push(...issuesOf(parsed.error, [location]));
  }
  if (issues.length > 0) throw validationError(issues);
  return out as { params: z.output<P>; query: z.output<Q>; body: z.output<B> };
}
