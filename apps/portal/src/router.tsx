// Every screen, lazily loaded: the first load carries the shell and the sign-in page only.
import { createBrowserRouter, type RouteObject } from 'react-router';
import { RequireSession } from './auth/require-session';
import { SignInPage } from './auth/sign-in-page';
import { AppShell } from './shell/app-shell';
import { RouteError } from './shell/route-error';
import { BASENAME, OWNER_SECTIONS, patterns, type OwnerSection } from './routes';

type PageModule = Promise<{ default: React.ComponentType }>;
const page = (load: () => PageModule): Pick<RouteObject, 'lazy'> => ({
  lazy: async () => ({ Component: (await load()).default }),
});

/** The owner console's screens of one domain, each its own chunk. */
const OWNER_SCREENS: Record<OwnerSection, () => PageModule> = {
  install: () => import('./features/owner-console/install/install-page'),
  appearance: () => import('./features/owner-console/appearance/appearance-page'),
  company: () => import('./features/owner-console/company/company-page'),
  scan: () => import('./features/owner-console/scan/scan-page'),
  records: () => import('./features/owner-console/records/records-page'),
  requests: () => import('./features/owner-console/requests/requests-page'),
  figures: () => import('./features/owner-console/figures/figures-page'),
  users: () => import('./features/owner-console/users/users-page'),
};

const ownerDomain: RouteObject = {
  path: patterns.ownerDomain,
  ...page(() => import('./features/owner-console/domain/domain-layout')),
  ErrorBoundary: RouteError,
  children: [
    { index: true, ...page(() => import('./features/owner-console/domain/domain-index')) },
    ...OWNER_SECTIONS.map((section) => ({ path: section, ...page(OWNER_SCREENS[section]), ErrorBoundary: RouteError })),
  ],
};

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
        ownerDomain,
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
