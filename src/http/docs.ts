// /openapi.json (generated once, on first request, from the same schemas that validate), /docs (Swagger UI served
// from the swagger-ui-dist package: works offline), and the dashboard at /.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Env } from './env';

const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
};

export function openApiDocument(app: OpenAPIHono<Env>, version: string) {
  app.openAPIRegistry.registerComponent('securitySchemes', 'bearerAuth', { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
  return app.getOpenAPI31Document({
    openapi: '3.1.0',
    info: {
      title: 'pix-sandbox',
      version,
      description:
        'Local emulator of a PIX payment-service API. Tag "v2 API" (and "v1 API") is the emulated service; tag "Control API" drives the sandbox (tenants, clock, actions). The emulated interface description carries version 1.0.',
    },
    servers: [{ url: '/' }],
    security: [{ bearerAuth: [] }],
  });
}

export function registerDocs(app: OpenAPIHono<Env>, version: string) {
  let doc: unknown;
  app.get('/openapi.json', (c) => c.json((doc ??= openApiDocument(app, version))));

  const assetsDir = () => dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  app.get('/docs/assets/:file', (c) => {
    const file = c.req.param('file');
    const type = ASSETS[file];
    if (!type) return c.notFound();
    return c.body(readFileSync(join(assetsDir(), file)), 200, { 'Content-Type': type, 'Cache-Control': 'public, max-age=3600' });
  });
  app.get('/docs', (c) =>
    c.html(`<!doctype html>
<html><head><meta charset="utf-8"><title>pix-sandbox API</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css"></head>
<body><div id="ui"></div><script src="/docs/assets/swagger-ui-bundle.js"></script>
<script>SwaggerUIBundle({ url: '/openapi.json', dom_id: '#ui', deepLinking: true });</script></body></html>`),
  );
}
