import { pageScripts } from '../src';

const page = (html: string) => pageScripts(Buffer.from(html), 'https://shop.example.com/en/');

describe("a page's scripts as a browser parses them (pageScripts)", () => {
  it('when scripts are in <head> and <body>, then each is listed in document order with where it is, its src resolved', () => {
    expect(
      page(`<!doctype html><html><head><base href="/static/">
        <script type="application/ld+json">{}</script>
        <script src="https://widget.test/widget/v1/p/loader.js"></script>
        <script type="module" src="app.js"></script>
        <script type="text/plain" data-category="analytics" src="//ga.example/ga.js"></script>
        </head><body><script>inline()</script><script src="javascript:void(0)"></script></body></html>`),
    ).toEqual([
      { src: null, inHead: true, runs: false },
      { src: 'https://widget.test/widget/v1/p/loader.js', inHead: true, runs: true },
      { src: 'https://shop.example.com/static/app.js', inHead: true, runs: true },
      { src: 'https://ga.example/ga.js', inHead: true, runs: false },
      { src: null, inHead: false, runs: true },
      { src: null, inHead: false, runs: true },
    ]);
  });

  it('when the markup omits <head>, or body content comes first, then <head> ends where a browser ends it', () => {
    expect(page('<script src="/a.js"></script><title>t</title><p>hi</p><script src="/b.js"></script>')).toEqual([
      { src: 'https://shop.example.com/a.js', inHead: true, runs: true },
      { src: 'https://shop.example.com/b.js', inHead: false, runs: true },
    ]);
    // A <div> in <head> is body content: the script after it is in <body>.
    expect(page('<html><head><div>banner</div><script src="/c.js"></script></head></html>')).toEqual([
      { src: 'https://shop.example.com/c.js', inHead: false, runs: true },
    ]);
  });

  it('when a JavaScript type carries parameters or another case, then it counts as one that runs (the check errs on the side of a warning)', () => {
    expect(
      page(
        '<head><script type="text/javascript; charset=utf-8"></script><script type="TEXT/JavaScript"></script></head>',
      ).map((s) => s.runs),
    ).toEqual([true, true]);
  });
});
