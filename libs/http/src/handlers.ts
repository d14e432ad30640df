import type { IncomingMessage } from 'node:http';
import type { RouteInput, RouteResponse, RouteSpec } from '@platform/contracts';
import type { PublicCaller } from './public-requests';

/** A success status other than 200, with headers; 204 and 304 (Not Modified) have no body. */
export class Reply<T> {
  constructor(
    readonly status: 200 | 201 | 202 | 204 | 304,
    readonly body: T | undefined,
    readonly headers: Record<string, string> = {},
  ) {}
}

/** An answer kept from an earlier request (an Idempotency-Key's replay): sent as these bytes, unchecked. */
export class StoredReply {
  constructor(
    readonly status: number,
    readonly headers: Record<string, string>,
    readonly body: Buffer,
  ) {}
}

/**
 * A download sent as it is made (chunked): each piece of `source` is written when the client has
 * taken the last (backpressure), so a large export never sits in memory. The status and headers
 * go out with the first piece: a source that fails before it is answered as any error, one that
 * fails later cuts the answer short (the client sees an incomplete transfer, never a false end).
 */
export class StreamReply {
  constructor(
    readonly headers: Record<string, string>,
    readonly source: AsyncIterable<string | Uint8Array>,
  ) {}
}

/** `return reply(201, { result }, { Location: ... })` from a handler; `reply(204)` and `reply(304)` answer no body. */
export function reply(status: 204 | 304, body?: undefined, headers?: Record<string, string>): Reply<never>;
export function reply<T>(status: 200 | 201 | 202, body: T, headers?: Record<string, string>): Reply<T>;
export function reply<T>(
  status: 200 | 201 | 202 | 204 | 304,
  body?: T,
  headers: Record<string, string> = {},
): Reply<T> {
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
export type HandlerResult<S extends RouteSpec> = RouteResponse<S> | Reply<RouteResponse<S>> | StoredReply | StreamReply;

export type Handler<S extends RouteSpec, C> = (
  input: HandlerInput<S, C>,
) => HandlerResult<S> | Promise<HandlerResult<S>>;

/**
 * A service's handlers: one per operation of its routes, keyed by operationId, with inputs and
 * result checked against the route's schemas at compile time.
 */
export type Handlers<R extends RouteSpec, C> = { [S in R as S['operationId']]: Handler<S, CallerOf<S, C>> };

/** A public route's handler is called by a PublicCaller (a visitor's browser through the gateway); every other by C. */
export type CallerOf<S extends RouteSpec, C> = S extends { access: 'public' } ? PublicCaller : C;

/** A download (a route with `download`): the bytes with their media type, offered as a file of this name. */
export const fileReply = (filename: string, contentType: string, data: Uint8Array): StoredReply =>
  new StoredReply(
    200,
    {
      'content-type': contentType,
      'content-disposition': `attachment; filename="${filename.replace(/["\\\r\n]/g, '')}"`,
    },
    Buffer.from(data),
  );

/** A streamed download (a route with `streamed`): offered as a file of this name. */
export const streamReply = (filename: string, contentType: string, source: AsyncIterable<string | Uint8Array>) =>
  new StreamReply(
    {
      'content-type': contentType,
      'content-disposition': `attachment; filename="${filename.replace(/["\\\r\n]/g, '')}"`,
      // An export is made for this caller now: never kept by a cache.
      'cache-control': 'no-store',
    },
    source,
  );
