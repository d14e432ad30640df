import express, { Router } from 'express';
import getAbsoluteFSPath from 'swagger-ui-dist/absolute-path.js';
import { partnerApiDocument, type RouteSpec } from '@platform/contracts';

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
  const document = JSON.stringify(partnerApiDocument(routes));
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
