// Static assets of the pages: served by the sandbox from the package (no CDN), with their content types, from the
// source tree and from the built bundle alike; a package's file served by servePackageFile.
import { existsSync, readFileSync } from 'node:fs';
import { OpenAPIHono } from '@hono/zod-openapi';
import { expect, test } from 'vitest';
import { startHarness } from '../helpers/harness';
import { servePackageFile } from '../../src/pages/static';
import type { Env } from '../../src/wire/env';

test.each([
  ['site.css', /^text\/css; charset=utf-8$/, ':root'],
  ['sandbox.js', /^text\/javascript; charset=utf-8$/, 'window.sandbox'],
])('GET /assets/%s answers the file with its content type', async (file, type, snippet) => {
  const h = await startHarness();
  const res = await h.api('GET', `/assets/${file}`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(type);
  expect(res.text).toContain(snippet);
});

test.each(['nope.css', '..%2Fstatic.ts', 'static.ts', '.hidden.js'])('GET /assets/%s is a 404', async (file) => {
  const h = await startHarness();
  expect((await h.api('GET', `/assets/${file}`)).status).toBe(404);
});

test('the build copies the assets beside the bundle, where the bundled code looks for them', () => {
  // npm test builds before it runs the tests; the bundle resolves ./assets/ from dist/.
  for (const file of ['site.css', 'sandbox.js']) {
    expect(existsSync(`dist/assets/${file}`), `dist/assets/${file}`).toBe(true);
    expect(readFileSync(`dist/assets/${file}`, 'utf8')).toBe(readFileSync(`src/pages/assets/${file}`, 'utf8'));
  }
});

test('servePackageFile serves one file of an installed package at a path, left out of /openapi.json like the pages', async () => {
  const app = new OpenAPIHono<Env>();
  servePackageFile(app, '/assets/vendor/jsqr.js', 'jsqr', 'dist/jsQR.js');
  const res = await app.request('/assets/vendor/jsqr.js');
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
  expect((await res.text()).length).toBeGreaterThan(1000);
  const doc = app.getOpenAPI31Document({ openapi: '3.1.0', info: { title: 't', version: '1' } });
  expect(doc.paths?.['/assets/vendor/jsqr.js']).toBeUndefined();
});
