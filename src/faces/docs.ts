// /openapi.json (generated once, on first request, from the same schemas that validate), /docs (Swagger UI served
// from the swagger-ui-dist files copied into dist/assets/vendor at build time: works offline).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { packageFilePath } from '../lib/package-files';
import type { OpenAPIHono } from '@hono/zod-openapi';
import { DeliveryHeadersSchema, EVENT_SCHEMAS, eventSummary, webhookOperationId } from '../webhooks/schemas';
import type { Env } from '../wire/env';
import { JSON_BODY_PREFIXES } from '../wire/middleware/body';
import { FAULT_PREFIXES } from '../wire/middleware/faults';
import { BEARER_SCHEME, SANDBOX_TOKEN_SCHEME } from '../wire/schemas';
import { EVENT_KINDS } from '../domain/events';

/** Looked up by a path segment: a Map, so that /docs/assets/constructor is a 404, not an inherited function (sandbox.md 11). */
const ASSETS = new Map([
  ['swagger-ui.css', 'text/css; charset=utf-8'],
  ['swagger-ui-bundle.js', 'application/javascript; charset=utf-8'],
]);

/** The service document's own version (service-api.md 9); the sandbox's version goes in `x-sandbox-version`. */
export const SERVICE_API_VERSION = '1.0';

export const TAGS = [
  { name: 'v2 API', description: 'The emulated service (base {base_url} = /v2): bearer token from POST /v2/auth, optional X-Sub-Account.' },
  { name: 'v1 API', description: 'The emulated v1 operations (base {base_url_v1} = /v1), authenticated by X-API-Key.' },
  { name: 'BR Code location', description: 'The URL a dynamic BR Code points at: what a payer\'s bank fetches to learn what to pay.' },
  {
    name: 'Control API',
    description: 'The sandbox\'s own API (/_sandbox): tenants, clock, faults, webhook endpoints and deliveries, and the actions that move transactions on. Open on loopback; needs X-Sandbox-Token when SANDBOX_ADMIN_TOKEN is set.',
  },
  { name: 'Webhooks', description: 'The events the sandbox POSTs to an account\'s webhook endpoints, signed with the endpoint secret (service document 6).' },
];

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
type Json = Record<string, any>;

/**
 * Answers that no route writes itself but the middleware app.ts mounts in front of them gives (body.ts: 400/413/415 on
 * a body; faults.ts: 429/503 from a fault rule; app.ts: 500 for a bug, 401 on /_sandbox with an admin token), and the
 * X-Trace-Id header every answer carries. Added where a route did not declare the status itself.
 */
function addTransportAnswers(doc: Json) {
  const headers = (doc.components.headers ??= {});
  headers['X-Trace-Id'] = { description: 'Id of this request, also in an error body as traceId', schema: { type: 'string', format: 'uuid' } };
  headers['Retry-After'] = { description: 'Seconds to wait before trying again', schema: { type: 'integer', minimum: 0 } };
  for (const [path, item] of Object.entries(doc.paths as Record<string, Json>)) {
    for (const method of METHODS) {
      const op = item[method] as Json | undefined;
      if (!op) continue;
      const schema = { $ref: `#/components/schemas/${path === '/v2/auth' ? 'AuthError' : 'Error'}` };
      const ensure = (status: string, description: string) => {
        op.responses[status] ??= { description, content: { 'application/json': { schema } } };
      };
      const under = (prefixes: readonly string[]) => prefixes.some((p) => path.startsWith(p));
      if (method !== 'get' && under(JSON_BODY_PREFIXES)) {
        ensure('400', 'MALFORMED_JSON: the body is not JSON');
        ensure('413', 'PAYLOAD_TOO_LARGE: the body is larger than 512 KiB');
        ensure('415', "UNSUPPORTED_MEDIA_TYPE: a body without 'Content-Type: application/json'");
      }
      if (path.startsWith('/_sandbox/')) ensure('401', 'X-Sandbox-Token missing or wrong (only when SANDBOX_ADMIN_TOKEN is set)');
      if (under(FAULT_PREFIXES)) {
        ensure('429', 'RATE_LIMITED, from a fault rule (PUT /_sandbox/faults); Retry-After says when to come back');
        ensure('503', 'Service unavailable: INJECTED_FAULT from a fault rule (PUT /_sandbox/faults)');
      }
      ensure('500', 'INTERNAL_ERROR: a bug in the sandbox (report it with the traceId), or a fault rule');
      for (const [status, response] of Object.entries(op.responses as Record<string, Json>)) {
        response.headers = { 'X-Trace-Id': { $ref: '#/components/headers/X-Trace-Id' }, ...response.headers };
        if (status === '429' || status === '503') response.headers['Retry-After'] = { $ref: '#/components/headers/Retry-After' };
      }
    }
  }
}

/**
 * Request bodies say their defaults in words only: openapi-typescript (with its default options) makes a field with a
 * `default` required, so a client could not leave out expiresIn. Query parameters keep theirs (generators handle them).
 */
function dropBodyDefaults(doc: Json) {
  const seen = new Set<unknown>();
  const walk = (node: unknown) => {
    if (!node || typeof node !== 'object' || seen.has(node)) return;
    seen.add(node);
    const o = node as Json;
    if (typeof o.$ref === 'string' && o.$ref.startsWith('#/components/schemas/')) walk(doc.components.schemas[o.$ref.split('/').pop()!]);
    if ('default' in o && (o.type !== undefined || o.enum !== undefined)) delete o.default;
    for (const v of Object.values(o)) walk(v);
  };
  for (const item of Object.values(doc.paths as Record<string, Json>)) for (const method of METHODS) walk(item[method]?.requestBody);
}

function registerWebhooks(app: OpenAPIHono<Env>) {
  for (const kind of EVENT_KINDS) {
    app.openAPIRegistry.registerWebhook({
      method: 'post',
      path: kind,
      operationId: webhookOperationId(kind),
      tags: ['Webhooks'],
      summary: eventSummary(kind),
      description: 'POSTed to every endpoint of the wallet (else of the main account) that takes this event. Check X-Service-Signature over the raw body before trusting it. Any 2xx within 10 s is success; anything else is retried (5 s, 30 s, 2 min, 10 min, 1 h of sandbox clock by default).',
      security: [],
      request: { headers: DeliveryHeadersSchema, body: { required: true, content: { 'application/json': { schema: EVENT_SCHEMAS[kind] } } } },
      responses: {
        200: { description: 'Received (any 2xx)' },
        401: { description: 'The receiver refused the signature; the delivery is retried' },
      },
    });
  }
}

export function openApiDocument(app: OpenAPIHono<Env>, version: string) {
  app.openAPIRegistry.registerComponent('securitySchemes', BEARER_SCHEME, {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'access_token from POST /v2/auth (300 s)',
  });
  app.openAPIRegistry.registerComponent('securitySchemes', SANDBOX_TOKEN_SCHEME, {
    type: 'apiKey',
    in: 'header',
    name: 'X-Sandbox-Token',
    description: 'The value of SANDBOX_ADMIN_TOKEN; checked only when it is set (otherwise the control API is open on loopback)',
  });
  registerWebhooks(app);
  const doc = app.getOpenAPI31Document({
    openapi: '3.1.0',
    info: {
      title: 'pix-sandbox',
      version: SERVICE_API_VERSION,
      description: `Local emulator of a PIX payment-service API (pix-sandbox ${version}). Tags "v2 API" and "v1 API" are the emulated service, described as the service describes itself (version ${SERVICE_API_VERSION}); tag "Control API" drives the sandbox (tenants, clock, actions, faults); "Webhooks" lists the events it sends.`,
      license: { name: 'MIT', url: 'https://opensource.org/license/mit' },
      'x-sandbox-version': version,
    } as { title: string; version: string },
    // Relative: Swagger UI at /docs calls the sandbox it was served from, whatever its port.
    servers: [{ url: '/', description: 'This sandbox (default http://127.0.0.1:4747)' }],
    tags: TAGS,
    security: [{ [BEARER_SCHEME]: [] }],
  }) as Json;
  addTransportAnswers(doc);
  dropBodyDefaults(doc);
  return doc;
}

/** `document` makes /openapi.json's document (route-groups.ts: from every route group, in their order); made once, on first request. */
export function registerDocs(app: OpenAPIHono<Env>, document: () => Promise<Json>) {
  let doc: Promise<Json> | undefined;
  app.get('/openapi.json', async (c) => {
    doc ??= document().catch((err) => {
      doc = undefined; // a failure is not kept: the next request tries again
      throw err;
    });
    return c.json(await doc);
  });

  const assetsDir = () => dirname(packageFilePath('swagger-ui-dist', 'swagger-ui.css'));
  app.get('/docs/assets/:file', (c) => {
    const file = c.req.param('file');
    const type = ASSETS.get(file);
    if (!type) return c.notFound();
    return c.body(readFileSync(join(assetsDir(), file)), 200, { 'Content-Type': type, 'Cache-Control': 'public, max-age=3600' });
  });
  app.get('/docs', (c) =>
    c.html(`<!doctype html>
<html><head><meta charset="utf-8"><title>pix-sandbox API</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css"></head>
<body><div id="ui"></div><script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/assets/docs.js"></script></body></html>`),
  );
}
