// The onboarding widgets' system tests: a partner's administrator who turns a widget on (through the
// portal API, with a session made from the e-mailed sign-in link), and the partner's own pages,
// served on 127.0.0.1 under names Chromium maps there.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { uniqueName } from '@platform/testing';
import type { Partner, System } from './system';

const SIGN_IN_LINK = /http:\/\/[^\s"<>]+\/sign-in#token=([\w.~-]+)/;

export interface WidgetSettingsInput {
  enabled: boolean;
  allowed_origins: string[];
  primary_color: string | null;
}

/** The partner's administrator, signed in: changes the partner's settings as the portal does. */
export async function partnerAdmin(sys: System, partner: Partner) {
  const email = `${uniqueName('admin')}@partner.test`;
  await sys.admin('user', 'invite', '--partner', partner.id, '--email', email, '--role', 'ADMINISTRATOR');
  const mail = await sys.smtp.waitForMessage((m) => m.to.includes(email) && SIGN_IN_LINK.test(m.decoded), 15_000);
  const token = SIGN_IN_LINK.exec(mail.decoded)![1];
  const session = await sys.call(undefined, 'POST', '/portal/auth/sessions', { token });
  expect(session.status).toBe(201);
  const cookie = String(session.headers.get('set-cookie')).split(';')[0];
  const headers = { cookie, 'x-csrf-token': session.body.result.csrf_token as string };
  return {
    widgets: async (widgets: { registration?: WidgetSettingsInput; scan?: WidgetSettingsInput }) => {
      const off: WidgetSettingsInput = { enabled: false, allowed_origins: [], primary_color: null };
      const body = { onboarding_widgets: { registration: off, scan: off, ...widgets } };
      const res = await sys.call(undefined, 'PATCH', '/portal/settings', body, headers);
      expect([res.status, res.text]).toEqual([200, expect.any(String)]);
      return res.body.result;
    },
  };
}

export interface PartnerSite {
  port: number;
  /** The origin of a page on this host, as a browser sends it. */
  origin(host: string): string;
  /** Serves this HTML at http://<host>:<port>/. */
  page(host: string, html: string): string;
  close(): Promise<void>;
}

/** The partner's pages (and customers' sites), by Host, on one local port. */
export async function partnerSite(): Promise<PartnerSite> {
  const pages = new Map<string, string>();
  const server = http.createServer((req, res) => {
    const html = pages.get(String(req.headers.host).split(':')[0]);
    res.writeHead(html ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html ?? 'no such page');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    origin: (host) => `http://${host}:${port}`,
    page: (host, html) => {
      pages.set(host, html);
      return `http://${host}:${port}/`;
    },
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** A partner's page embedding one onboarding widget. */
export const embeddingPage = (script: string, attributes: Record<string, string>, widget: string) => {
  const attrs = Object.entries(attributes)
    .map(([k, v]) => ` ${k}="${v}"`)
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Partner panel</title></head>
<body><main><h1>Partner panel</h1><div data-onboarding-${widget}></div>
<script src="${script}"${attrs} async></script></main></body></html>`;
};

/** axe-core's serious and critical violations inside the onboarding widget (the page around it is not ours). */
export async function onboardingAxeViolations(page: Page): Promise<string[]> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const AxeBuilder = (require('@axe-core/playwright') as typeof import('@axe-core/playwright')).default;
  const result = await new AxeBuilder({ page }).include('[data-onboarding-widget]').analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => v.id + ': ' + v.nodes.map((n) => n.target.join(' ')).join(', '));
}
