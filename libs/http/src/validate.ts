import type { IncomingHttpHeaders } from 'node:http';
import type { z } from 'zod';
import { AppError, issuesOf, validationError } from './errors';
import { hasBody } from './middleware';

/** Parses one part of a request; every problem is listed in data.issues with its location. */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, location: 'body' | 'query' | 'params'): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw validationError(issuesOf(parsed.error, [location]));
  return parsed.data;
}

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
    const parsed = schema.safeParse(location === 'body' ? bodyOf(req) : req[location]);
    if (parsed.success) out[location] = parsed.data;
    else issues.push(...issuesOf(parsed.error, [location]));
  }
  if (issues.length > 0) throw validationError(issues);
  return out as { params: z.output<P>; query: z.output<Q>; body: z.output<B> };
}

export const assertFound = <T>(value: T | undefined | null, what?: string): T => {
  if (value === undefined || value === null) throw new AppError('RESOURCE.NOT_FOUND', what ? `The ${what} does not exist.` : undefined);
  return value;
};
