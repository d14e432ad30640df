// Every screen, lazily loaded: the first load carries the shell and the sign-in page only.
import { createBrowserRouter, type RouteObject } from 'react-router';
import { RequireSession } from './auth/require-session';
import { SignInPage } from './auth/sign-in-page';
import { AppShell } from './shell/app-shell';
import { RouteError } from './shell/route-error';
import { BASENAME, patterns } from './routes';

type PageModule = Promise<{ default: React.ComponentType }>;
const page = (load: () => PageModule): Pick<RouteObject, 'lazy'> => ({
  lazy: async () => ({ Component: (await load()).default }),
});

const screens: RouteObject[] = [
  { index: true, ...page(() => import('./features/dashboard/dashboard-page')) },
  { path: patterns.domains, ...page(() => import('./features/domains/pages/domains-list-page')) },
  { path: patterns.domainCreate, ...page(() => import('./features/domains/pages/domain-create-page')) },
  { path: patterns.domainImport, ...page(() => import('./features/imports/import-page')) },
  { path: patterns.domain, ...page(() => import('./features/domains/pages/domain-page')) },
  { path: patterns.merchants, ...page(() => import('./features/merchants/pages/merchants-list-page')) },
  { path: patterns.merchantCreate, ...page(() => import('./features/merchants/pages/merchant-edit-page')) },
  { path: patterns.merchant, ...page(() => import('./features/merchants/pages/merchant-edit-page')) },
  { path: patterns.apiKeys, ...page(() => import('./features/api-keys/api-keys-page')) },
  { path: patterns.webhooks, ...page(() => import('./features/webhooks/pages/webhooks-page')) },
  { path: patterns.webhook, ...page(() => import('./features/webhooks/pages/webhook-page')) },
  { path: patterns.emailTemplates, ...page(() => import('./features/email-templates/templates-page')) },
  { path: patterns.emailTemplate, ...page(() => import('./features/email-templates/template-edit-page')) },
  { path: patterns.team, ...page(() => import('./features/team/team-page')) },
  { path: patterns.audit, ...page(() => import('./features/audit/audit-page')) },
  { path: patterns.settings, ...page(() => import('./features/settings/settings-page')) },
  { path: patterns.account, ...page(() => import('./features/account/account-page')) },
  { path: '*', ...page(() => import('./shell/not-found-page')) },
];

export const router = createBrowserRouter(
  [
    { path: patterns.signIn, Component: SignInPage, ErrorBoundary: RouteError },
    { path: patterns.twoFactor, ...page(() => import('./auth/two-factor-page')), ErrorBoundary: RouteError },
    {
      path: patterns.enrolTwoFactor,
      ...page(() => import('./auth/enrol-two-factor-page')),
      ErrorBoundary: RouteError,
    },
    // The owner console: another audience with its own sign-in, session guard and frame.
    {
      path: patterns.ownerSignIn,
      ...page(() => import('./features/owner-console/sign-in-page')),
      ErrorBoundary: RouteError,
    },
    {
      path: patterns.owner,
      ...page(() => import('./features/owner-console/owner-console')),
      ErrorBoundary: RouteError,
      children: [
        { index: true, ...page(() => import('./features/owner-console/home-page')), ErrorBoundary: RouteError },
        { path: '*', ...page(() => import('./features/owner-console/not-found-page')), ErrorBoundary: RouteError },
      ],
    },
    {
      Component: RequireSession,
      ErrorBoundary: RouteError,
      children: [{ Component: AppShell, children: screens.map((s) => ({ ...s, ErrorBoundary: RouteError })) }],
    },
  ],
  { basename: BASENAME },
);
