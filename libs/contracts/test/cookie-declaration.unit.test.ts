import {
  cookieDeclarationOf,
  cookieDeclarationSchema,
  cookieDuration,
  type CookieFinding,
  type ScanReport,
} from '../src';

const FINISHED = '2026-11-20T12:00:00.000Z';
const after = (ms: number) => new Date(Date.parse(FINISHED) + ms).toISOString();
const DAY = 86_400_000;

const cookie = (c: Partial<CookieFinding> & Pick<CookieFinding, 'name' | 'category'>): CookieFinding => ({
  domain: 'shop.example.com',
  expires_at: null,
  first_party: true,
  vendor: null,
  ...c,
});

const report = (status: ScanReport['status'], cookies: CookieFinding[]): ScanReport => ({
  id: 'scan-1',
  domain_id: 'd-1',
  status,
  mode: 'http',
  requested_by: 'API',
  started_at: '2026-11-20T11:59:00.000Z',
  finished_at: status === 'completed' || status === 'failed' ? FINISHED : null,
  pages: ['https://shop.example.com/'],
  findings: {
    scripts: [],
    cookies,
    iframes: [],
    counts: { necessary: 0, functional: 0, analytics: 0, marketing: 0, unclassified: 0 },
  },
  errors: [],
  created_at: '2026-11-20T11:58:00.000Z',
});

const domain = { id: 'd-1', hostname: 'shop.example.com' };

describe('the cookie declaration (pure)', () => {
  it.each([
    [null, 'Session'],
    [after(30_000), '1 minute'],
    [after(45 * 60_000), '45 minutes'],
    [after(3_600_000), '1 hour'],
    [after(23 * 3_600_000), '23 hours'],
    [after(DAY), '1 day'],
    [after(30 * DAY), '30 days'],
    [after(59 * DAY), '59 days'],
    [after(90 * DAY), '3 months'],
    [after(180 * DAY), '6 months'],
    [after(365 * DAY), '1 year'],
    [after(400 * DAY), '1 year'],
    [after(730 * DAY), '2 years'],
  ])('when a cookie expires at %s, then its duration reads %s', (expiresAt, expected) => {
    expect(cookieDuration(expiresAt, FINISHED)).toBe(expected);
  });

  it('when the latest scan completed, then its cookies are grouped by category in the widget order, unclassified last, sorted by name', () => {
    const declaration = cookieDeclarationOf(
      domain,
      report('completed', [
        cookie({ name: '_gid', category: 'analytics', expires_at: after(DAY), vendor: 'Google' }),
        cookie({ name: '_ga', category: 'analytics', expires_at: after(730 * DAY), vendor: 'Google' }),
        cookie({ name: 'fr', category: 'marketing', domain: '.facebook.net', first_party: false, vendor: 'Meta' }),
        cookie({ name: 'session_id', category: 'necessary' }),
        cookie({ name: 'x_mystery', category: 'unclassified', expires_at: after(90 * DAY) }),
      ]),
    );
    expect(cookieDeclarationSchema.strict().parse(declaration)).toEqual(declaration);
    expect(declaration.scanned_at).toBe(FINISHED);
    expect(declaration.categories.map((c) => [c.category, c.label, c.cookies.map((k) => k.name)])).toEqual([
      ['necessary', 'Necessary', ['session_id']],
      ['functional', 'Functional', []],
      ['analytics', 'Analytics', ['_ga', '_gid']],
      ['marketing', 'Marketing', ['fr']],
      ['unclassified', 'Not classified', ['x_mystery']],
    ]);
    expect(declaration.categories[2].cookies).toEqual([
      { name: '_ga', domain: 'shop.example.com', vendor: 'Google', first_party: true, duration: '2 years' },
      { name: '_gid', domain: 'shop.example.com', vendor: 'Google', first_party: true, duration: '1 day' },
    ]);
    expect(declaration.categories[3].cookies[0]).toMatchObject({ first_party: false, duration: 'Session' });
    expect(declaration.categories[0].description).toMatch(/Always on/);
  });

  it.each([['running'], ['failed'], ['queued'], ['none']] as const)(
    'when the latest scan is %s, then every category is listed empty and scanned_at is null',
    (status) => {
      const latest = status === 'none' ? undefined : report(status, [cookie({ name: 'a', category: 'necessary' })]);
      const declaration = cookieDeclarationOf(domain, latest);
      expect(declaration.scanned_at).toBeNull();
      expect(declaration.categories.map((c) => [c.category, c.cookies.length])).toEqual([
        ['necessary', 0],
        ['functional', 0],
        ['analytics', 0],
        ['marketing', 0],
        ['unclassified', 0],
      ]);
    },
  );
});
