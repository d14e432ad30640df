import type { IncomingMessage } from 'node:http';
import type { RouteInput, RouteResponse, RouteSpec } from '@platform/contracts';

/** A success status other than 200, with headers; 204 has no body. */
export class Reply<T> {
  constructor(
    readonly status: 200 | 201 | 202 | 204,
    readonly body: T | undefined,
    readonly headers: Record<string, string> = {},
  ) {}
}

/** `return reply(201, { result }, { Location: ... })` from a handler; `reply(204)` answers no body. */
export function reply(status: 204, body?: undefined, headers?: Record<string, string>): Reply<never>;
export function reply<T>(status: 200 | 201 | 202, body: T, headers?: Record<string, string>): Reply<T>;
export function reply<T>(status: 200 | 201 | 202 | 204, body?: T, headers: Record<string, string> = {}): Reply<T> {
  return new Reply(status, body, headers);
}

/** What a handler of route S gets: its validated params, query and body (typed by the route's schemas) and the caller. */
export interface HandlerInput<S extends RouteSpec, C> {
  params: RouteInput<S, 'params'>;
  query: RouteInput<S, 'query'>;
  body: RouteInput<S, 'body'>;
  caller: C;
  req: IncomingMessage;
}

/** The route's response (sent with 200), or a Reply with another status; throw AppError for the contract's failures. */
export type HandlerResult<S extends RouteSpec> = RouteResponse<S> | Reply<RouteResponse<S>>;

export type Handler<S extends RouteSpec, C> = (input: HandlerInput<S, C>) => HandlerResult<S> | Promise<HandlerResult<S>>;

/**
 * A service's handlers: one per operation of its routes, keyed by operationId, with inputs and
 * result checked against the route's schemas at compile time.
 */
export type Handlers<R extends RouteSpec, C> = { [S in R as S['operationId']]: Handler<S, C> };
