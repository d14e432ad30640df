import { identityRoutes, type RouteSpec } from '@platform/contracts';
import { startSmtpServer, type TestSmtpServer } from '@platform/testing';
import { admin, startGateway, startSuite, TEST_ROUTES, json, type Gateway, type Suite } from './harness';

/** The test route table with the gateway's own routes, and deleteThing audited and needing domains:delete (as deleteDomain). */
export const PORTAL_TEST_ROUTES: RouteSpec[] = [
  ...TEST_ROUTES.map((r) =>
    r.operationId === 'deleteThing'
      ? ({ ...r, audit: 'domain.deleted', userPermission: 'domains:delete' } as RouteSpec)
      : r,
  ),
  ...identityRoutes,
];

/** A signed-in portal user: the cookie to send, and the session's CSRF token for writes. */
export interface SignedIn {
  cookie: string;
  csrf: string;
  userId: string;
  /** The Set-Cookie header as answered. */
  setCookie: string;
  session: Record<string, unknown> & { stage: string };
}

export interface PortalSuite {
  suite: Suite;
  gateway: Gateway;
  smtp: TestSmtpServer;
  /** Moves the gateway's clock forward. */
  advance(ms: number): void;
  /** Puts the clock back to real time (the CLI makes links by real time). */
  resetClock(): void;
  now(): number;
  /** A client address of its own (X-Forwarded-For from a trusted loopback proxy), so throttles of one test do not touch another's. */
  client(): Record<string, string>;
  /** `user invite` with the CLI: the user and the sign-in link's token. */
  invite(partnerId: string, email: string, role: string): Promise<{ userId: string; token: string }>;
  /** Redeems a token for a session. */
  redeem(token: string): Promise<Response>;
  signIn(partnerId: string, email: string, role: string): Promise<SignedIn>;
  /** A request with the session cookie (and its CSRF token on writes unless csrf: false), and any headers of its own. */
  call(
    who: SignedIn,
    method: string,
    path: string,
    body?: unknown,
    options?: { csrf?: boolean; headers?: Record<string, string> },
  ): Promise<Response>;
  close(): Promise<void>;
}

let clientSeq = 0;

export const tokenOf = (link: string) => /#token=([A-Za-z0-9_-]+)/.exec(link)?.[1] ?? '';

export async function signedInFrom(res: Response): Promise<SignedIn> {
  if (res.status !== 201) throw new Error(`sign-in answered ${res.status}: ${await res.text()}`);
  const setCookie = res.headers.get('set-cookie') ?? '';
  const body = await json(res);
  return {
    cookie: setCookie.split(';')[0],
    csrf: body.result.csrf_token,
    userId: body.result.user.id,
    setCookie,
    session: body.result,
  };
}

export async function startPortalSuite(env: Record<string, string> = {}): Promise<PortalSuite> {
  const suite = await startSuite();
  const smtp = await startSmtpServer();
  let offset = 0;
  const now = () => Date.now() + offset;
  const gateway = await startGateway(
    {
      ...suite.env,
      SMTP_URL: smtp.url,
      MAIL_POLL_MS: '50',
      TRUSTED_PROXIES: 'loopback',
      PORTAL_URL: 'http://127.0.0.1:8080/app',
      KEY_LAST_USED_FLUSH_MS: '100',
      ...env,
    },
    PORTAL_TEST_ROUTES,
    { now },
  );
  const redeem = (token: string) =>
    fetch(`${gateway.url}/portal/auth/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.1' },
      body: JSON.stringify({ token }),
    });
  const invite = async (partnerId: string, email: string, role: string) => {
    const out = await admin<{ user: { id: string }; sign_in_url: string }>(
      suite.databaseUrl,
      'user',
      'invite',
      '--partner',
      partnerId,
      '--email',
      email,
      '--role',
      role,
    );
    return { userId: out.user.id, token: tokenOf(out.sign_in_url) };
  };
  return {
    suite,
    gateway,
    smtp,
    advance: (ms) => {
      offset += ms;
    },
    resetClock: () => {
      offset = 0;
    },
    now,
    client: () => ({ 'x-forwarded-for': `203.0.113.${++clientSeq}` }),
    invite,
    redeem,
    signIn: async (partnerId, email, role) => signedInFrom(await redeem((await invite(partnerId, email, role)).token)),
    call: (who, method, path, body, options = {}) =>
      fetch(`${gateway.url}${path}`, {
        method,
        headers: {
          cookie: who.cookie,
          ...(options.csrf === false || method === 'GET' ? {} : { 'x-csrf-token': who.csrf }),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...options.headers,
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    close: async () => {
      await gateway.close();
      await smtp.close();
      await suite.close();
    },
  };
}
