// The OpenAPI document comes from the same schemas that validate (STYLE.md habit 8): every route the app serves is in
// it, under the right tag; /docs serves Swagger UI from local assets.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { expect, test } from 'vitest';
import { startHarness } from '../helpers/harness';

// Paths that are not API operations: the documents themselves, the token verification keys and the pages for people
// (console, payer page, their assets); and the fallbacks
// behind the one-path-per-action control routes, which only answer 400 naming the actions there are.
const NOT_API = new Set(['/openapi.json', '/docs', '/docs/assets/:file', '/.well-known/jwks.json', '/', '/pay', '/join', '/join/forget', '/assets/:file', '/assets/vendor/jsqr.js', '/_sandbox/console', '/_sandbox/transactions/:id/*', '/_sandbox/balance-blocks/:id/*', '/c/:slug', '/c/:slug/pix', '/c/:slug/pay']);

const toOpenApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

function tagFor(path: string): string {
  if (path.startsWith('/_sandbox/')) return 'Control API';
  if (path.startsWith('/v2/')) return 'v2 API';
  if (path.startsWith('/v1/')) return 'v1 API';
  if (path.startsWith('/pix/qr/')) return 'BR Code location';
  if (path === '/' || path === '/pay' || path.startsWith('/assets/')) return 'Pages';
  return '(no API prefix)';
}

async function servedRoutes() {
  const h = await startHarness();
  const seen = new Set<string>();
  const routes: { method: string; path: string }[] = [];
  for (const r of h.sb.app.routes) {
    // The standard API Pix face has its own document, checked below.
    if (r.method === 'ALL' || NOT_API.has(r.path) || r.path.startsWith('/api-pix/') || r.path === '/openapi-api-pix.json') continue;
    const key = `${r.method} ${r.path}`;
    if (seen.has(key)) continue; // a route's middleware and handler are listed one entry each
    seen.add(key);
    routes.push({ method: r.method.toLowerCase(), path: toOpenApiPath(r.path) });
  }
  const res = await h.api('GET', '/openapi.json');
  expect(res.status, res.text.slice(0, 500)).toBe(200);
  return { routes, doc: res.body as { openapi: string; paths: Record<string, Record<string, { tags?: string[] }>> } };
}

test('the app serves the foundation routes (so the documentation check below has something to check)', async () => {
  const { routes } = await servedRoutes();
  const keys = routes.map((r) => `${r.method} ${r.path}`);
  for (const expected of [
    'post /v2/auth',
    'get /v2/account',
    'get /v2/projects',
    'post /v2/projects',
    'get /v2/projects/{id}',
    'get /v2/sub-accounts',
    'post /v2/sub-accounts',
    'post /_sandbox/accounts',
    'patch /_sandbox/accounts/{id}/credentials/{credentialId}',
    'put /_sandbox/clock',
    'post /_sandbox/reset',
  ])
    expect(keys, expected).toContain(expected);
});

test('GET /openapi.json documents every route the app serves, with its method', async () => {
  const { routes, doc } = await servedRoutes();
  expect(doc.openapi).toMatch(/^3\./);
  const missing = routes.filter((r) => !doc.paths[r.path]?.[r.method]).map((r) => `${r.method.toUpperCase()} ${r.path}`);
  expect(missing, `undocumented routes: ${missing.join(', ')}`).toEqual([]);
});

test('every operation of the API Pix face is in its own document, /openapi-api-pix.json (the payload locations and the token URL too)', async () => {
  const h = await startHarness();
  const doc = (await h.api('GET', '/openapi-api-pix.json')).body as { paths: Record<string, Record<string, unknown>>; components: any };
  const served = h.sb.app.routes.filter((r) => r.method !== 'ALL' && r.path.startsWith('/api-pix/'));
  const missing = [...new Set(served.map((r) => `${r.method} ${r.path}`))]
    .map((key) => key.split(' ') as [string, string])
    .filter(([method, path]) => {
      if (path === '/api-pix/oauth/token') return !doc.components.securitySchemes.OAuth2.flows.clientCredentials.tokenUrl.endsWith(path);
      // The locations the charges and recurrences carry (/api-pix/qr/v2/...) answer as the document's /qr/... under {api_pix} do.
      const docPath = toOpenApiPath(path.replace(/^\/api-pix\/qr\/v2/, '/qr').replace(/^\/api-pix\/v2/, '')).replace('/rec/{token}', '/rec/{recUrlAccessToken}').replace('{token}', '{pixUrlAccessToken}');
      return !doc.paths[docPath]?.[method.toLowerCase()];
    });
  expect(missing, missing.join(', ')).toEqual([]);
  expect(served.length).toBeGreaterThan(23);
  await h.sb.close();
});

test('every served route is documented under its API tag', async () => {
  const { routes, doc } = await servedRoutes();
  const wrong = routes
    .filter((r) => doc.paths[r.path]?.[r.method])
    .filter((r) => !(doc.paths[r.path]![r.method]!.tags ?? []).includes(tagFor(r.path)))
    .map((r) => `${r.method.toUpperCase()} ${r.path}: ${JSON.stringify(doc.paths[r.path]![r.method]!.tags)} (expected '${tagFor(r.path)}')`);
  expect(wrong, wrong.join('\n')).toEqual([]);
});

test('the document lists no operation the app does not serve', async () => {
  const { routes, doc } = await servedRoutes();
  const served = new Set(routes.map((r) => `${r.method} ${r.path}`));
  const extra = Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.keys(ops)
      .filter((m) => ['get', 'post', 'put', 'patch', 'delete'].includes(m))
      .filter((m) => !served.has(`${m} ${path}`))
      .map((m) => `${m.toUpperCase()} ${path}`),
  );
  expect(extra, extra.join(', ')).toEqual([]);
});

test('the document describes the validation it applies: POST /v2/projects requires name and color', async () => {
  const h = await startHarness();
  const doc = (await h.api('GET', '/openapi.json')).body;
  const op = doc.paths['/v2/projects'].post;
  let schema = op.requestBody.content['application/json'].schema;
  if (schema.$ref) schema = doc.components.schemas[schema.$ref.split('/').pop()];
  expect(schema.required, JSON.stringify(schema)).toEqual(expect.arrayContaining(['name', 'color']));
  expect(Object.keys(op.responses), JSON.stringify(op.responses)).toEqual(expect.arrayContaining(['201', '400', '401', '403', '409']));
});

test('GET /docs serves an HTML page that loads Swagger UI from the local asset route and points it at /openapi.json', async () => {
  const h = await startHarness();
  const res = await h.api('GET', '/docs');
  expect(res.status, res.text).toBe(200);
  expect(res.headers.get('content-type'), res.text).toMatch(/^text\/html/);
  const assets = [...res.text.matchAll(/(?:href|src)="(\/docs\/assets\/[^"]+)"/g)].map((m) => m[1]!);
  expect(assets.sort(), res.text).toEqual(['/docs/assets/swagger-ui-bundle.js', '/docs/assets/swagger-ui.css']);
  // Started by a file of the sandbox's own assets: the pages' CSP allows no inline script.
  expect(res.text).toContain('<script src="/assets/docs.js"></script>');
  const init = await h.api('GET', '/assets/docs.js');
  expect(init.status, init.text).toBe(200);
  expect(init.text).toContain("'/openapi.json'");
  expect(init.text).toContain('SwaggerUIBundle');
});

test.each([
  ['swagger-ui.css', /^text\/css/],
  ['swagger-ui-bundle.js', /^application\/javascript/],
])('GET /docs/assets/%s serves the file of swagger-ui-dist', async (file, type) => {
  const h = await startHarness();
  const res = await h.api('GET', `/docs/assets/${file}`);
  expect(res.status, res.text.slice(0, 300)).toBe(200);
  expect(res.headers.get('content-type'), file).toMatch(type);
  const dir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  expect(res.text === readFileSync(join(dir, file), 'utf8'), `${file} differs from swagger-ui-dist's`).toBe(true);
});

test.each(['index.html', '..%2Fpackage.json', 'swagger-ui.js'])('GET /docs/assets/%s is a 404 in the envelope', async (file) => {
  const h = await startHarness();
  const res = await h.api('GET', `/docs/assets/${file}`);
  expect(res.status, res.text.slice(0, 300)).toBe(404);
  expect(res.body.details.code, res.text.slice(0, 300)).toBe('ROUTE_NOT_FOUND');
});
