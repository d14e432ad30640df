import type { Server } from 'node:http';
import { z } from 'zod';
import { defineRoute, resultOf } from '@platform/contracts';
import { createLogger } from '@platform/observability';
import { createDispatcher, createHttpServer, listenServer, reply, serverPort, type Handlers } from '../src';

const thingSchema = z.object({ id: z.string(), name: z.string() });
const routes = [
  defineRoute({
    operationId: 'createThing',
    method: 'post',
    path: '/portal/things/{group}',
    service: 'domains',
    permission: 'domains:write',
    summary: 'Create',
    tag: 'Things',
    params: z.object({ group: z.string() }),
    query: z.object({ dry: z.enum(['yes', 'no']).default('no') }),
    body: z.object({ name: z.string().min(1) }),
    response: resultOf(thingSchema),
    errors: [],
  }),
  defineRoute({
    operationId: 'deleteThing',
    method: 'delete',
    path: '/portal/things/{group}/{id}',
    service: 'domains',
    permission: 'domains:write',
    summary: 'Delete',
    tag: 'Things',
    params: z.object({ group: z.string(), id: z.string() }),
    response: z.object({}),
    errors: [],
  }),
  defineRoute({
    operationId: 'getThing',
    method: 'get',
    path: '/portal/things/{group}/{id}',
    service: 'domains',
    permission: 'domains:read',
    summary: 'Get',
    tag: 'Things',
    params: z.object({ group: z.string(), id: z.string() }),
    response: resultOf(thingSchema),
    errors: [],
  }),
];
type Route = (typeof routes)[number];

const handlers: Handlers<Route, { partnerId: string }> = {
  // Inputs are typed from the route: params.group, query.dry ('yes' | 'no') and body.name, no casts.
  createThing: ({ params, query, body, caller }) =>
    reply(
      201,
      { result: { id: `${params.group}-${query.dry}-${caller.partnerId}`, name: body.name } },
      { Location: `/portal/things/${params.group}/x` },
    ),
  deleteThing: () => reply(204),
  // A presenter that drifted from the contract: `name` is missing (the cast hides it from the compiler).
  getThing: ({ params }) => ({ result: { id: params.id } as { id: string; name: string } }),
};

// Compile-time checks: each line below must fail to type-check (tsc runs in npm test).
export const compileTimeChecks: Handlers<Route, { partnerId: string }>[] = [
  // @ts-expect-error a result that is not the route's response type
  { ...handlers, getThing: () => ({ result: { id: 1, name: 'x' } }) },
  // @ts-expect-error a body field the route does not have
  { ...handlers, createThing: ({ body }) => ({ result: { id: body.missing, name: 'x' } }) },
  // @ts-expect-error a missing handler
  { createThing: handlers.createThing, deleteThing: handlers.deleteThing },
];

describe('the dispatcher with typed handlers', () => {
  const servers: Server[] = [];
  const start = async (validateResponses: boolean) => {
    const listener = createDispatcher<Route, { partnerId: string }>({
      logger: createLogger('test', 'silent'),
      routes,
      handlers,
      prefix: '/portal',
      authenticate: (token) => (token === 'ok' ? { partnerId: 'p1' } : undefined),
      fallback: (_req, res) => res.writeHead(404).end(),
      validateResponses,
    });
    const server = await listenServer(createHttpServer(listener), 0);
    servers.push(server);
    return `http://127.0.0.1:${serverPort(server)}`;
  };
  afterAll(async () => {
    for (const s of servers) await new Promise((r) => s.close(r));
  });
  const auth = { authorization: 'Bearer ok' };

  it('when a handler replies 201 with a header, then the status, header and body are sent', async () => {
    const base = await start(true);
    const res = await fetch(`${base}/portal/things/g1?dry=yes`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: '{"name":"n"}',
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe('/portal/things/g1/x');
    expect(await res.json()).toEqual({ result: { id: 'g1-yes-p1', name: 'n' } });
  });

  it('when a handler replies 204, then no body is sent', async () => {
    const base = await start(true);
    const res = await fetch(`${base}/portal/things/g1/a`, { method: 'DELETE', headers: auth });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
  });

  it('when an answer drifts from the response schema and answers are checked, then 500 SERVER.INTERNAL instead of the drifted answer', async () => {
    const base = await start(true);
    const res = await fetch(`${base}/portal/things/g1/a`, { headers: auth });
    expect(res.status).toBe(500);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('SERVER.INTERNAL');
  });

  it('when answers are not checked (production), then the handler result is sent as it is', async () => {
    const base = await start(false);
    const res = await fetch(`${base}/portal/things/g1/a`, { headers: auth });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ result: { id: 'a' } });
  });
});
