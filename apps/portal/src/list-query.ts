// List filters live in the URL and are parsed with the route's own query schema, so back, forward
// and shared links work, and a hand-edited address never sends the API a bad query.
import { useSearchParams } from 'react-router';
import type { z } from 'zod';

export const PAGE_SIZE = 20;

/** The URL's query parsed by `schema`; a value the schema refuses is dropped (the rest still applies). */
export function parseListQuery<S extends z.ZodType>(schema: S, params: URLSearchParams): z.output<S> {
  const raw: Record<string, string> = { limit: String(PAGE_SIZE) };
  params.forEach((value, key) => {
    raw[key] = value;
  });
  for (let attempt = 0; attempt < 10; attempt++) {
    const parsed = schema.safeParse(raw);
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) delete raw[String(issue.path[0])];
  }
  return schema.parse({ limit: String(PAGE_SIZE) });
}

/** The URL's query as the list asks for it, and a setter that resets the page when a filter changes. */
export function useListQuery<S extends z.ZodType>(schema: S) {
  const [params, setParams] = useSearchParams();
  const query = parseListQuery(schema, params);
  const raw = Object.fromEntries(params.entries());
  // What the API is sent: the URL's text for every key the schema accepted, with page and limit.
  const apiQuery: Record<string, string> = { limit: String(PAGE_SIZE) };
  for (const [key, value] of Object.entries(raw)) if (key in (query as object)) apiQuery[key] = value;
  const setFilters = (changes: Record<string, string | undefined>) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) {
      if (value === undefined || value === '') next.delete(key);
      else next.set(key, value);
    }
    if (!('page' in changes)) next.delete('page');
    setParams(next);
  };
  return { query, raw, apiQuery, setFilters };
}
