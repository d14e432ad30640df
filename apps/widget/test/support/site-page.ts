// The customer's page: the snippet first in <head>, then scripts marked the way site owners mark
// them (inline analytics, an external marketing file), and the page's own script that must always run.
export function sitePage(snippet: string): string {
  return `<!doctype html>
<html lang="en">
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
