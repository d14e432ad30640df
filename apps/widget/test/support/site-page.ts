// The customer's page: the snippet first in <head>, then scripts marked the way site owners mark
// them (inline analytics, an external marketing file), and the page's own script that must always run.
// `lang` and `dir` are the page's <html> attributes (the widget reads lang when the browser's languages name none it speaks).
export function sitePage(snippet: string, lang = 'en', dir?: string): string {
  return `<!doctype html>
<html lang="${lang}"${dir ? ` dir="${dir}"` : ''}>
<head>
${snippet}
<meta charset="utf-8">
<title>Example Shop</title>
<style>
  /* A site's aggressive styles must not reach the widget. */
  button { background: rgb(255, 0, 0) !important; font-size: 30px !important; }
  * { font-family: cursive; }
</style>
<script>
  window.consentEvents = [];
  window.addEventListener('privacywidget:consent', function (e) { window.consentEvents.push(e.detail); });
</script>
<script type="text/plain" data-category="analytics">
  window.analyticsRan = (window.analyticsRan || 0) + 1;
</script>
<script type="text/plain" data-category="marketing" src="/site/marketing.js"></script>
</head>
<body>
<main>
  <h1>Example Shop</h1>
  <p>Welcome to the shop.</p>
  <button id="buy" type="button" onclick="this.textContent = 'Added to cart'">Add to cart</button>
  <a href="#" onclick="PrivacyWidget.open(); return false;">Privacy choices</a>
</main>
<script>window.pageWorks = true; window.analyticsBeforeBodyEnd = window.analyticsRan || 0;</script>
</body>
</html>`;
}

// A page with embeds marked the way issue 28 asks (no src: data-src and data-category): two YouTube
// videos (marketing) and a Google Maps map (functional), served by the fake platform on `port` under
// hostnames Chromium maps to 127.0.0.1.
export function embedsPage(snippet: string, port: number): string {
  const frame = (id: string, category: string, src: string, size: string) =>
    `<iframe id="${id}" data-category="${category}" data-src="${src}" ${size} title="${id}"></iframe>`;
  return `<!doctype html>
<html lang="en">
<head>
${snippet}
<meta charset="utf-8">
<title>Example Shop: videos</title>
</head>
<body>
<main>
  <h1>Our videos</h1>
  ${frame('v1', 'marketing', `https://www.youtube.com:${port}/embed/one`, 'width="560" height="315"')}
  ${frame('v2', 'marketing', `https://www.youtube-nocookie.com:${port}/embed/two`, 'width="400" height="225"')}
  ${frame('m1', 'functional', `https://www.google.com:${port}/maps/embed/map`, '')}
</main>
</body>
</html>`;
}
