import express, { Router } from 'express';
import getAbsoluteFSPath from 'swagger-ui-dist/absolute-path.js';
import { buildOpenApi, type ErrorCode, type RouteSpec } from '@platform/contracts';

const DESCRIPTION = `Partner API for managing domains, subdomains, subscriptions, merchants, consent records and webhooks.

Authenticate every /portal request with \`Authorization: Bearer <API_KEY>\`. Keys may be limited to one IP
address, carry an expiry and a set of permissions (a missing permission answers 403 with \`data.required\`).
Every error answers \`{"error": {"code", "ns", "message", "status", "data"?}}\`; the full catalogue is in
\`x-error-catalogue\`. Requests are rate limited per key (429 with \`Retry-After\` and \`RateLimit\` headers).`;

/** Errors the gateway itself may answer on any operation, on top of each route's own. */
const GATEWAY_ERRORS: ErrorCode[] = ['AUTH.API_KEY', 'AUTH.FORBIDDEN', 'RATE.LIMITED', 'SERVICE.UNAVAILABLE'];
const BODY_ERRORS: ErrorCode[] = ['VALIDATION.MALFORMED_JSON', 'REQUEST.TOO_LARGE', 'REQUEST.UNSUPPORTED_MEDIA_TYPE'];

function openApiDocument(routes: RouteSpec[]) {
  const withGatewayErrors = routes.map((r) => ({
    ...r,
    errors: [...new Set([...r.errors, ...GATEWAY_ERRORS, ...(r.body ? BODY_ERRORS : [])])],
  }));
  return buildOpenApi(withGatewayErrors, {
    title: 'Partner Domain Management API',
    version: '1.0',
    description: DESCRIPTION,
  });
}

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Partner Domain Management API</title>
  <link rel="stylesheet" href="/docs/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/swagger-ui-bundle.js"></script>
  <script src="/docs/swagger-ui-standalone-preset.js"></script>
  <script src="/docs/init.js"></script>
</body>
</html>`;

const INIT = `window.ui = SwaggerUIBundle({
  url: '/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  layout: 'StandaloneLayout',
});`;

/** GET /openapi.json (built once) and the API reference page at /docs, served locally (no CDN). */
export function docsRouter(routes: RouteSpec[]): Router {
  const document = JSON.stringify(openApiDocument(routes));
  const router = Router();
  router.get('/openapi.json', (_req, res) => {
    res.type('application/json').send(document);
  });
  router.get(['/docs', '/docs/'], (_req, res) => {
    res.type('html').send(PAGE);
  });
  router.get('/docs/init.js', (_req, res) => {
    res.type('application/javascript').send(INIT);
  });
  router.use('/docs', express.static(getAbsoluteFSPath(), { index: false, maxAge: '1h' }));
  return router;
}
