/** Where a registration's e-mailed link lands: {base}/widget/v1/onboarding/confirm#partner=<id>&token=<token>. */
export const CONFIRM_PAGE_PATH = '/widget/v1/onboarding/confirm';
/** The registration widget's script (apps/widget, onboarding/registration.js), also the confirmation page's. */
export const ONBOARDING_SCRIPT_PATH = /^\/widget\/v1\/onboarding\/(registration|scan)\.js$/;

/**
 * The confirmation page: the registration script in its confirm mode reads the token from the
 * fragment (never sent to a server, so never in a log or a Referer), posts it, and says so.
 */
export const CONFIRM_PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Confirm your registration</title>
<style>body{margin:0;background:#f3f4f6;font-family:system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif}main{max-width:36rem;margin:3rem auto;padding:0 1rem}</style>
</head>
<body>
<main><div data-onboarding-confirm></div></main>
<script src="/widget/v1/onboarding/registration.js" data-mode="confirm"></script>
</body>
</html>
`;

/** Only our own script and calls; no frame may hold it (it acts on a link's token). */
export const CONFIRM_PAGE_HEADERS = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
};
