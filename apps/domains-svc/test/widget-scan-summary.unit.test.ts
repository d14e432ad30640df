import { widgetScanSummaryOf } from '../src/scanner/widget-scan-summary';

describe("the scan widget's summary", () => {
  it('when a scan found scripts, frames and cookies, then trackers are the analytics and marketing scripts and frames, vendors named once, sorted', () => {
    const summary = widgetScanSummaryOf(['https://s.example.com/', 'https://s.example.com/a'], {
      scripts: [
        { url: 'https://a/x.js', host: 'a', category: 'analytics', vendor: 'Google' },
        { url: 'https://b/y.js', host: 'b', category: 'marketing', vendor: 'Meta' },
        { url: 'https://s.example.com/app.js', host: 's.example.com', category: 'functional', vendor: null },
      ],
      iframes: [{ url: 'https://v/e', host: 'v', category: 'marketing', marked: false }],
      cookies: [
        {
          name: '_ga',
          domain: 's.example.com',
          expires_at: null,
          first_party: true,
          category: 'analytics',
          vendor: 'Google',
        },
        {
          name: 'sid',
          domain: 's.example.com',
          expires_at: null,
          first_party: true,
          category: 'necessary',
          vendor: null,
        },
      ],
      counts: { necessary: 1, functional: 1, analytics: 2, marketing: 2, unclassified: 0 },
    });
    expect(summary).toEqual({
      pages: 2,
      categories: [
        { name: 'necessary', label: 'Necessary', count: 1 },
        { name: 'functional', label: 'Functional', count: 1 },
        { name: 'analytics', label: 'Analytics', count: 2 },
        { name: 'marketing', label: 'Marketing', count: 2 },
        { name: 'unclassified', label: 'Not classified', count: 0 },
      ],
      cookies: 2,
      trackers: 3,
      third_parties: ['Google', 'Meta'],
    });
  });
});
