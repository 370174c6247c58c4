// lazyRoutes (what the CLI runs): each route group joins the app at the first request under its paths. Whatever order
// the groups come in, the app ends up with the routes of a sandbox that loaded them all at start, answers as it does,
// and /openapi.json is the same document; GET /_sandbox/health answers before any group is in.
import { afterEach, expect, test } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/app';
import type { SandboxOptions } from '../../src/config';

const T0 = '2026-03-10T12:00:00.000Z';
const open: Sandbox[] = [];
async function sandbox(options: SandboxOptions = {}) {
  const sb = await createSandbox({ clockStart: T0, freezeClock: true, seed: 7, log: () => {}, ...options });
  open.push(sb);
  return sb;
}
afterEach(async () => {
  for (const sb of open.splice(0)) await sb.close();
});

const keys = (sb: Sandbox) => new Set(sb.app.routes.map((r) => `${r.method} ${r.path}`));
/** A request path for a route path: each parameter a word. */
const concrete = (path: string) => path.replace(/:[A-Za-z0-9_]+/g, 'x').replace(/\*$/, 'x');

test('GET /_sandbox/health answers before any route group is loaded, with the body of the loaded control API', async () => {
  const lazy = await sandbox({ lazyRoutes: true });
  const before = lazy.app.routes.length;
  const res = await lazy.app.request('/_sandbox/health');
  expect(res.status).toBe(200);
  expect(lazy.app.routes.length).toBe(before); // nothing loaded for it
  const eager = await sandbox();
  const [a, b] = (await Promise.all([res.json(), (await eager.app.request('/_sandbox/health')).json()])) as [Record<string, unknown>, Record<string, unknown>];
  expect(Object.keys(a)).toEqual(Object.keys(b));
  expect({ ...a, uptimeSeconds: 0, rssBytes: 0 }).toEqual({ ...b, uptimeSeconds: 0, rssBytes: 0 });
});

test('a request under each route path loads the group that serves it: in the end the app has every route of a sandbox that loaded all at start', async () => {
  const eager = await sandbox();
  const lazy = await sandbox({ lazyRoutes: true });
  // OPTIONS: no route answers it, so no handler runs (no stream opens, nothing changes), but the group loads.
  for (const path of [...new Set(eager.app.routes.map((r) => r.path))].reverse()) {
    const res = await lazy.app.request(concrete(path), { method: 'OPTIONS' });
    expect([404, 405], path).toContain(res.status);
    const missing = eager.app.routes.filter((r) => r.path === path && !keys(lazy).has(`${r.method} ${r.path}`));
    expect(missing, `after OPTIONS ${concrete(path)}`).toEqual([]);
  }
  expect(keys(lazy)).toEqual(keys(eager));
});

test('/openapi.json is the same document, byte for byte, whatever groups were loaded before it', async () => {
  const eager = await sandbox();
  const expected = await (await eager.app.request('/openapi.json')).text();
  for (const first of [[], ['/_sandbox/accounts', '/pay'], ['/v1/customers', '/api-pix/v2/cob', '/v2/account']]) {
    const lazy = await sandbox({ lazyRoutes: true });
    for (const path of first) await lazy.app.request(path);
    const res = await lazy.app.request('/openapi.json');
    expect(res.status).toBe(200);
    expect(await res.text(), `after ${first.join(', ')}`).toBe(expected);
  }
});

test.each([
  ['the console page first, then the control API', ['/', '/_sandbox/console', '/_sandbox/health', '/_sandbox/accounts']],
  ['the control API first', ['/_sandbox/health', '/_sandbox/console', '/']],
])('with an admin token, the control API token check guards its console fragment and health as at start (%s)', async (_, paths) => {
  const eager = await sandbox({ adminToken: 'secret-token' });
  const lazy = await sandbox({ adminToken: 'secret-token', lazyRoutes: true });
  for (const path of paths) {
    const [a, b] = [await lazy.app.request(path), await eager.app.request(path)];
    expect(a.status, path).toBe(b.status);
    const withToken = [await lazy.app.request(path, { headers: { 'X-Sandbox-Token': 'secret-token' } }), await eager.app.request(path, { headers: { 'X-Sandbox-Token': 'secret-token' } })];
    expect(withToken[0]!.status, `${path} with the token`).toBe(withToken[1]!.status);
  }
  expect((await lazy.app.request('/_sandbox/console')).status).toBe(401);
});

test('the v2 face answers its first request as a sandbox that loaded it at start does', async () => {
  const lazy = await sandbox({ lazyRoutes: true });
  const auth = await lazy.app.request('/v2/auth', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_id: 'mp_test_sandbox_full_access', client_secret: 'sandbox-secret-full-access' }),
  });
  expect(auth.status).toBe(200);
  const { access_token } = (await auth.json()) as { access_token: string };
  const bad = await lazy.app.request('/v2/pix', { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${access_token}` }, body: JSON.stringify({ amount: -1 }) });
  expect(bad.status).toBe(400);
  expect(((await bad.json()) as { details?: { code?: string } }).details?.code).toBe('VALIDATION_ERROR');
  expect((await lazy.app.request('/nowhere')).status).toBe(404);
});
