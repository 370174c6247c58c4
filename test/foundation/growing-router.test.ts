// The app's router keeps its routes apart by first segment (wire/growing-router.ts): for every route the app serves,
// a request to it gets the very handlers, in the same order and with the same parameters, that one router over every
// route gives; and it still takes routes after it has matched.
import { expect, test } from 'vitest';
import type { Result } from 'hono/router';
import { TrieRouter } from 'hono/router/trie-router';
import { GrowingRouter } from '../../src/wire/growing-router';
import { startHarness } from '../helpers/harness';

/** A request path for a route path: each parameter and wildcard filled in. */
const sample = (path: string, fill: string) => path.replace(/:[A-Za-z0-9_]+(\{[^}]*\})?\??/g, fill).replace(/\*/g, `${fill}/tail`);

/** Handlers with their parameters by name, whichever router answered (RegExpRouter gives indexes into a stash). */
const resolved = ([found, stash]: Result<unknown>) =>
  found.map(([handler, params]) => [handler, Object.fromEntries(Object.entries(params).map(([name, v]) => [name, stash ? stash[v as number] : v]))]);

test('matches every route of the app as one TrieRouter over all of them does', async () => {
  const h = await startHarness();
  const routes = h.sb.app.routes as readonly { method: string; path: string; handler: unknown }[];
  const mine = new GrowingRouter<unknown>();
  const one = new TrieRouter<unknown>();
  for (const r of routes) {
    mine.add(r.method, r.path, r.handler);
    one.add(r.method, r.path, r.handler);
  }
  const paths = new Set(routes.flatMap((r) => [sample(r.path, '0b6c1f3e-8d4a-4c1e-9f3a-2d5e7a9b1c40'), sample(r.path, 'cobv')]));
  for (const extra of ['/', '/nowhere', '/nowhere/at/all', '/_sandbox', '/_sandbox/', '/v2', '/v2/pix/', '/api-pix/qr/v2/cobv/x', '/assets/vendor/jsqr.js']) paths.add(extra);
  let compared = 0;
  for (const path of paths)
    for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD']) {
      expect(resolved(mine.match(method, path)), `${method} ${path}`).toEqual(resolved(one.match(method, path)));
      compared++;
    }
  expect(compared).toBeGreaterThan(1000);
});

test('takes routes added after it has matched', () => {
  const router = new GrowingRouter<string>();
  router.add('ALL', '/*', 'everywhere');
  router.add('GET', '/a/:id', 'a');
  expect(router.match('GET', '/b/1')[0].map(([h]) => h)).toEqual(['everywhere']);
  router.add('GET', '/b/:id', 'b');
  router.add('GET', '/:any/x', 'any');
  expect(resolved(router.match('GET', '/b/1'))).toEqual([['everywhere', {}], ['b', { id: '1' }]]);
  expect(router.match('GET', '/a/x')[0].map(([h]) => h)).toEqual(['everywhere', 'a', 'any']);
  expect(router.match('GET', '/c/x')[0].map(([h]) => h)).toEqual(['everywhere', 'any']);
});
