/** Where a data subject request's e-mailed link lands: {base}/widget/v1/requests/confirm#token=<token>. */
export const REQUEST_CONFIRM_PAGE_PATH = '/widget/v1/requests/confirm';
export const REQUEST_CONFIRM_SCRIPT_PATH = '/widget/v1/requests/confirm.js';
/** consent-svc's confirmDataRequest (libs/contracts dataRequestPublicRoutes), same origin as the page. */
const CONFIRM_API_PATH = '/widget/v1/requests/confirmations';

/**
 * The page the requester's link opens: its script reads the token from the fragment (never sent to
 * a server, so never in a log or a Referer), drops it from the address bar, posts it, and says what
 * came of it (the request confirmed and by when it is due, or the link no longer works).
 */
export const REQUEST_CONFIRM_PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Confirm your privacy request</title>
<style>body{margin:0;background:#f3f4f6;color:#111827;font-family:system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;line-height:1.5}main{max-width:36rem;margin:3rem auto;padding:1.5rem;background:#fff;border-radius:8px}h1{font-size:1.4rem;margin-top:0}</style>
</head>
<body>
<main><h1 tabindex="-1">Confirming your request…</h1><p role="status" aria-live="polite"></p></main>
<script src="${REQUEST_CONFIRM_SCRIPT_PATH}"></script>
</body>
</html>
`;

/** The page's script (no framework, no inline code: the CSP allows only this file). */
export const REQUEST_CONFIRM_SCRIPT = `(function () {
  var h1 = document.querySelector('h1');
  var status = document.querySelector('[role=status]');
  var TYPES = { access: 'access to your data', deletion: 'deletion of your data', correction: 'correction of your data',
    opt_out: 'opt-out of the sale or sharing of your data', portability: 'a copy of your data (portability)' };
  function show(title, text) { h1.textContent = title; status.textContent = text; h1.focus(); }
  var token = new URLSearchParams(location.hash.slice(1)).get('token');
  history.replaceState(null, '', location.pathname);
  if (!token) return show('This link does not work', 'Open the link from the e-mail exactly as it was sent.');
  fetch('${CONFIRM_API_PATH}', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ token: token }) })
    .then(function (res) { return res.json().then(function (body) { return { ok: res.ok, body: body }; }); })
    .then(function (r) {
      if (!r.ok) return show('This link does not work any more', 'It may have expired (links work for 24 hours). Send the request again from the website.');
      var q = r.body.result;
      var due = q.due_at ? new Date(q.due_at).toISOString().slice(0, 10) : '';
      show('Your request is confirmed', 'Your request to ' + q.hostname + ' for ' + (TYPES[q.type] || q.type) + ' (' + q.request_id + ') was passed on. ' +
        (due ? 'They must answer by ' + due + '. ' : '') + 'The answer comes to this e-mail address.');
      if (due) { var d = document.createElement('p'); d.setAttribute('data-request-due', due); d.textContent = 'Due date: ' + due; status.after(d); }
    }, function () { show('Your request could not be confirmed', 'Please try the link again later.'); });
})();
`;

/** Only our own script and calls; no frame may hold it (it acts on a link's token). */
export const REQUEST_CONFIRM_HEADERS = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
};
