// A stand-in for the gateway and its services: one real HTTP port on 127.0.0.1 that serves the built
// portal (dist/apps/portal) at /app/ with the gateway's CSP, and answers the /portal routes of
// libs/contracts' route table in memory. Requests are matched and validated with the route tables' own zod schemas, sessions
// live in an HttpOnly cookie with a CSRF token, and a role's permissions come from ROLE_PERMISSIONS,
// so the portal meets the same envelope, field errors and 401/403s as on the real gateway.
import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import busboy from 'busboy';
import { z } from 'zod';
import {
  compileRoute,
  errorObject,
  isSignInRoute,
  matchRoute,
  ROLE_PERMISSIONS,
  ROUTES,
  type RouteSpec,
  type UploadedFile,
} from '@platform/contracts';
import { AppError } from './fake-errors';
import { ownerMay } from './fake-owner';
import { FakeState } from './fake-state';

export const DIST = path.resolve(__dirname, '../../../../dist/apps/portal');

/** The gateway's policy for the portal (apps/gateway/src/http/portal-app.ts), so a CSP breach fails here too. */
const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; " +
  "frame-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'";

const COMPILED = ROUTES.filter((r) => r.path.startsWith('/portal/')).map(compileRoute);
/** What needs no session: asking for a link and exchanging it. */
const OPEN = new Set(['createSignInLink', 'createSession', 'createOwnerSignInLink', 'createOwnerSession']);
/** The owner console's routes: its own cookie and sessions; a partner session reaches none of them, nor an owner's any other. */
const OWNER_PATH = '/portal/owner/';
/** What a session still in its second-factor step may call. */
const TOTP_STAGE = new Set([
  'getSession',
  'verifySessionTotp',
  'startTotpEnrolment',
  'confirmTotpEnrolment',
  'deleteSession',
]);

/** Answers that are slow on the real platform: the install check fetches the site's home page. */
const DELAYS: [string, number][] = [['checkOwnerInstall', 800]];

export interface Call {
  operationId: string;
  method: string;
  path: string;
  body: unknown;
  csrf: string | undefined;
  idempotencyKey: string | undefined;
}

const issuesOf = (error: z.ZodError, where: string) =>
  error.issues.map((i) => ({ path: [where, ...i.path.map(String)].join('.'), message: i.message }));

export class FakeApi {
  state = new FakeState();
  readonly calls: Call[] = [];
  /** Set to a status to make every call of that operationId fail (e.g. 503), to see an error state. */
  readonly failing = new Map<string, number>();
  /** While set, answers to these operationIds wait (to see a loading state). */
  readonly held = new Map<string, Promise<void>>();
  /** Answers that take this long, as the real ones do (the install check reads a site over the internet). */
  readonly delays = new Map<string, number>(DELAYS);
  /** Failures answered once each, in order, before an operationId is handled as usual (see failNext). */
  private readonly nextFailures = new Map<string, { status: number; headers: Record<string, string> }[]>();
  private server = http.createServer((req, res) => void this.handle(req, res));
  port = 0;

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  /** Back to the seeded state, as a new fake would be (one fake serves a whole test file). */
  reset() {
    this.state = new FakeState();
    this.calls.length = 0;
    this.failing.clear();
    this.held.clear();
    this.nextFailures.clear();
    this.delays.clear();
    for (const [operationId, ms] of DELAYS) this.delays.set(operationId, ms);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  get origin(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The next call of `operationId` fails once with `status` (and headers, e.g. Retry-After), as a busy gateway would. */
  failNext(operationId: string, status: number, headers: Record<string, string> = {}) {
    this.nextFailures.set(operationId, [...(this.nextFailures.get(operationId) ?? []), { status, headers }]);
  }

  url(appPath = '/'): string {
    return `${this.origin}/app${appPath}`;
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const url = new URL(req.url ?? '/', this.origin);
    if (url.pathname === '/app' || url.pathname.startsWith('/app/')) return this.static(url.pathname, res);
    const match = matchRoute(COMPILED, req.method ?? 'GET', url.pathname);
    if (match.kind !== 'match') return this.send(res, 404, { error: errorObject('ROUTE.NOT_FOUND') });
    const spec = match.route.spec;
    try {
      const body = spec.multipart ? await readMultipart(req, spec.multipart) : await readBody(req);
      const cookie = /(?:^|;\s*)pp_session=([^;]+)/.exec(req.headers.cookie ?? '')?.[1];
      const csrf = req.headers['x-csrf-token'] as string | undefined;
      const idempotencyKey = req.headers['idempotency-key'] as string | undefined;
      this.calls.push({
        operationId: spec.operationId,
        method: spec.method,
        path: url.pathname,
        body,
        csrf,
        idempotencyKey,
      });
      await this.held.get(spec.operationId);
      const delay = this.delays.get(spec.operationId);
      if (delay) await new Promise((resolve) => setTimeout(resolve, delay));
      const once = this.nextFailures.get(spec.operationId)?.shift();
      if (once) {
        const code = once.status === 429 ? 'RATE.LIMITED' : 'SERVICE.UNAVAILABLE';
        throw new AppError(code, once.status, undefined, undefined, once.headers);
      }
      const failure = this.failing.get(spec.operationId);
      if (failure) throw new AppError('SERVICE.UNAVAILABLE', failure);
      const ownerCookie = /(?:^|;\s*)pp_owner_session=([^;]+)/.exec(req.headers.cookie ?? '')?.[1];
      const owner = spec.path.startsWith(OWNER_PATH) ? this.authoriseOwner(spec, ownerCookie, csrf) : undefined;
      const session = spec.path.startsWith(OWNER_PATH) ? undefined : this.authorise(spec, cookie, csrf);
      const input = validate(spec, match.params, Object.fromEntries(url.searchParams), body);
      const answer = this.state.answer(spec.operationId, { ...input, session, cookie, owner, ownerCookie });
      if (answer.setCookie) res.setHeader('Set-Cookie', answer.setCookie);
      if (answer.contentType) {
        res.writeHead(answer.status ?? 200, { 'content-type': answer.contentType });
        return void res.end(answer.body);
      }
      this.send(res, answer.status ?? spec.status ?? 200, answer.body);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      const envelope = {
        code: error.code,
        ns: error.code.split('.')[0],
        message: error.message,
        status: error.status,
        ...(error.data ? { data: error.data } : {}),
      };
      this.send(res, error.status, { error: envelope }, error.headers);
    }
  }

  private authorise(spec: RouteSpec, cookie: string | undefined, csrf: string | undefined) {
    if (OPEN.has(spec.operationId)) return undefined;
    const session = cookie ? this.state.sessions.get(cookie) : undefined;
    if (!session) throw new AppError('AUTH.SESSION_REQUIRED', 401, 'Sign in to continue.');
    if (spec.method !== 'get' && csrf !== session.csrf)
      throw new AppError('AUTH.CSRF', 403, 'The CSRF token is missing or wrong.');
    if (session.stage !== 'ACTIVE' && !TOTP_STAGE.has(spec.operationId)) throw new AppError('AUTH.FORBIDDEN', 403);
    if (isSignInRoute(spec)) return session;
    const role = this.state.users.get(session.userId)!.role;
    const granted = ROLE_PERMISSIONS[role] as readonly string[];
    const needs = [spec.permission, spec.userPermission].filter(Boolean) as string[];
    if (!needs.every((p) => granted.includes(p)))
      throw new AppError('AUTH.FORBIDDEN', 403, 'Your role does not allow this.');
    return session;
  }

  private authoriseOwner(spec: RouteSpec, cookie: string | undefined, csrf: string | undefined) {
    if (OPEN.has(spec.operationId)) return undefined;
    const owner = cookie ? this.state.ownerSessions.get(cookie) : undefined;
    const user = owner && this.state.ownerUsers.get(owner.ownerUserId);
    if (!owner || !user?.access) throw new AppError('AUTH.SESSION_REQUIRED', 401, 'Sign in to continue.');
    if (spec.method !== 'get' && csrf !== owner.csrf)
      throw new AppError('AUTH.CSRF', 403, 'The CSRF token is missing or wrong.');
    // The route's ownerRole (VIEWER < ADMIN < OWNER), as the gateway checks it: a VIEWER's write is a 403.
    if (spec.access === 'owner' && !ownerMay(user, spec.ownerRole))
      throw new AppError('AUTH.FORBIDDEN', 403, 'Your role in this account does not allow this.');
    return owner;
  }

  private static(pathname: string, res: http.ServerResponse) {
    const asset = /^\/app\/assets\/([\w.-]+)$/.exec(pathname);
    const file = asset ? path.join(DIST, 'assets', asset[1]) : path.join(DIST, 'index.html');
    if (!existsSync(file)) return this.send(res, 404, { error: errorObject('ROUTE.NOT_FOUND') });
    const type = file.endsWith('.js')
      ? 'application/javascript'
      : file.endsWith('.css')
        ? 'text/css'
        : 'text/html; charset=utf-8';
    // As the gateway: hashed assets are immutable, index.html carries the policy.
    const headers = asset
      ? { 'cache-control': 'public, max-age=31536000, immutable' }
      : { 'content-security-policy': CSP, 'cache-control': 'no-cache' };
    res.writeHead(200, { 'content-type': type, ...headers });
    res.end(readFileSync(file));
  }

  private send(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
    if (status === 204 || body === undefined) {
      res.writeHead(status === 200 ? 204 : status, headers);
      return void res.end();
    }
    res.writeHead(status, { ...headers, 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify(body));
  }
}

/** The route's params, query and body parsed by its schemas; a refusal is the contract's 400 with issues. */
function validate(spec: RouteSpec, params: Record<string, string>, query: Record<string, string>, body: unknown) {
  const issues: { path: string; message: string }[] = [];
  const parse = <S extends z.ZodType | undefined>(schema: S, value: unknown, where: string) => {
    if (!schema) return undefined;
    const parsed = schema.safeParse(value);
    if (!parsed.success) issues.push(...issuesOf(parsed.error, where));
    return parsed.success ? parsed.data : undefined;
  };
  const bodyRequired = spec.body && spec.bodyRequired !== false;
  const input = {
    params: parse(spec.params, params, 'params') as Record<string, string>,
    query: parse(spec.query, query, 'query') as Record<string, unknown>,
    body: parse(spec.body, body === undefined && !bodyRequired ? undefined : (body ?? {}), 'body') as Record<
      string,
      unknown
    >,
  };
  if (issues.length > 0) throw new AppError('VALIDATION.INVALID', 400, 'The request data is invalid.', { issues });
  return input;
}

/**
 * An upload (RouteSpec.multipart) as the services read it (libs/http's readMultipart, with busboy): the
 * text fields and the file as an UploadedFile; 415 for another type, 413 when the file is too large.
 */
function readMultipart(
  req: http.IncomingMessage,
  { file, maxFileBytes }: { file: string; maxFileBytes: number },
): Promise<Record<string, unknown>> {
  if (!/^multipart\/form-data\s*;/i.test(req.headers['content-type'] ?? ''))
    return Promise.reject(
      new AppError('REQUEST.UNSUPPORTED_MEDIA_TYPE', 415, 'The request body must be multipart/form-data.'),
    );
  return new Promise((resolve, reject) => {
    const fields: Record<string, unknown> = {};
    let tooLarge = false;
    const parser = busboy({ headers: req.headers, limits: { fileSize: maxFileBytes } });
    parser.on('field', (name, value) => (fields[name] = value));
    parser.on('file', (name, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => (tooLarge = true));
      stream.on('close', () => {
        if (name === file)
          fields[name] = {
            filename: info.filename ?? '',
            content_type: info.mimeType,
            data: Buffer.concat(chunks),
          } satisfies UploadedFile;
      });
    });
    parser.on('error', () => reject(new AppError('REQUEST.MALFORMED', 400, 'The multipart body is not well formed.')));
    parser.on('close', () =>
      tooLarge
        ? reject(new AppError('REQUEST.TOO_LARGE', 413, `The file in ${file} is larger than ${maxFileBytes} bytes.`))
        : resolve(fields),
    );
    req.pipe(parser);
  });
}

async function readBody(req: http.IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? JSON.parse(text) : undefined;
}
