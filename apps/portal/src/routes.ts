// The only file that spells the portal's paths (relative to its base, /app): pages link with these builders.
const seg = (value: string) => encodeURIComponent(value);
const withQuery = (path: string, query: Record<string, string | number | undefined> = {}) => {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query))
    if (value !== undefined && value !== '') search.set(key, String(value));
  const text = search.toString();
  return text ? `${path}?${text}` : path;
};

export const BASENAME = '/app';

/** The router's patterns, one per screen. */
export const patterns = {
  signIn: 'sign-in',
  twoFactor: 'sign-in/two-factor',
  enrolTwoFactor: 'sign-in/set-up-two-factor',
  dashboard: '',
  domains: 'domains',
  domainCreate: 'domains/new',
  domainImport: 'domains/import',
  domain: 'domains/:domainId',
  merchants: 'merchants',
  merchantCreate: 'merchants/new',
  merchant: 'merchants/:merchantId',
  apiKeys: 'integrations/api-keys',
  webhooks: 'integrations/webhooks',
  webhook: 'integrations/webhooks/:endpointId',
  emailTemplates: 'email-templates',
  emailTemplate: 'email-templates/:kind',
  team: 'team',
  audit: 'audit-log',
  settings: 'settings',
  account: 'account',
  // The owner console (the customer's own account, another audience): its own sign-in and guard.
  ownerSignIn: 'owner/sign-in',
  owner: 'owner',
  // One of the customer's domains (under owner), with a child route per section (OWNER_SECTIONS).
  ownerDomain: 'domains/:domainId',
} as const;

/** The owner console's sections of one domain, in the order its navigation lists them; each is a path segment. */
export const OWNER_SECTIONS = [
  'install',
  'appearance',
  'company',
  'scan',
  'records',
  'figures',
  'requests',
  'users',
] as const;
export type OwnerSection = (typeof OWNER_SECTIONS)[number];

export const routes = {
  signIn: () => '/sign-in',
  twoFactor: () => '/sign-in/two-factor',
  enrolTwoFactor: () => '/sign-in/set-up-two-factor',
  dashboard: () => '/',
  domains: {
    list: (query?: Record<string, string | number | undefined>) => withQuery('/domains', query),
    create: () => '/domains/new',
    import: () => '/domains/import',
    detail: ({ domainId }: { domainId: string }) => `/domains/${seg(domainId)}`,
  },
  merchants: {
    list: (query?: Record<string, string | number | undefined>) => withQuery('/merchants', query),
    create: () => '/merchants/new',
    detail: ({ merchantId }: { merchantId: string }) => `/merchants/${seg(merchantId)}`,
  },
  apiKeys: () => '/integrations/api-keys',
  webhooks: {
    list: () => '/integrations/webhooks',
    detail: ({ endpointId }: { endpointId: string }) => `/integrations/webhooks/${seg(endpointId)}`,
  },
  emailTemplates: {
    list: () => '/email-templates',
    detail: ({ kind }: { kind: string }) => `/email-templates/${seg(kind)}`,
  },
  team: () => '/team',
  audit: (query?: Record<string, string | number | undefined>) => withQuery('/audit-log', query),
  settings: () => '/settings',
  account: () => '/account',
  owner: {
    home: () => '/owner',
    signIn: () => '/owner/sign-in',
    domain: ({ domainId }: { domainId: string }) => `/owner/domains/${seg(domainId)}`,
    section: (
      { domainId, section }: { domainId: string; section: OwnerSection },
      query?: Record<string, string | number | undefined>,
    ) => withQuery(`/owner/domains/${seg(domainId)}/${section}`, query),
  },
};
