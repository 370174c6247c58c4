// The whole sandbox (sandbox.md 4, 4.7): reset to the fixtures, health, and the SANDBOX_ADMIN_TOKEN guard.
import { expect, test } from 'vitest';
import { DEFAULT, startHarness, T0 } from '../helpers/harness';
import { createSandbox } from '../../src/app';
import { accountState, at, expectEnvelope, expectStatus } from './support';

test('POST /_sandbox/reset brings back the fixtures: created projects, tenants, sub-accounts and changes disappear', async () => {
  const h = await startHarness();
  const fixtures = await accountState(h);
  const project = await h.v2('POST', '/projects', { body: { name: 'Temporário', color: '#123456' } });
  expect(project.status, project.text).toBe(201);
  await expectStatus(h.v2('POST', '/sub-accounts', { body: { reference: 'loja-temp', name: 'Temp' } }), 201);
  await expectStatus(h.control('POST', '/accounts', { name: 'Outro' }), 201);
  await expectStatus(h.control('POST', `/accounts/${DEFAULT.accountId}/adjustments`, { amount: 99 }), 201);
  await expectStatus(h.control('PATCH', `/accounts/${DEFAULT.accountId}`, { status: 'suspended' }), 200);

  const reset = await h.control('POST', '/reset');
  expect(reset.status, reset.text).toBe(200);
  expect(reset.body, reset.text).toEqual({ reset: true, accounts: 1 });

  expectEnvelope(await h.v2('GET', `/projects/${project.body.id}`), 404, 'PROJECT_NOT_FOUND');
  const projects = await h.v2('GET', '/projects');
  expect(projects.body.items.map((p: { id: string }) => p.id), projects.text).toEqual([DEFAULT.projectId]);
  const subAccounts = await h.v2('GET', '/sub-accounts');
  expect(subAccounts.body.data, subAccounts.text).toHaveLength(3);
  const accounts = await h.control('GET', '/accounts');
  expect(accounts.body.items.map((a: { id: string }) => a.id), accounts.text).toEqual([DEFAULT.accountId]);
  expect(await accountState(h)).toEqual(fixtures);
});

test('reset keeps the clock where it was', async () => {
  const h = await startHarness();
  await expectStatus(h.advance(3600), 200);
  await expectStatus(h.control('POST', '/reset'), 200);
  const clock = await h.control('GET', '/clock');
  expect(clock.body, clock.text).toEqual({ now: at(3600), frozen: true });
});

test.each([
  ['{"clock": true} puts it back where start-up put it (here the harness start, frozen)', { clock: true }, 0],
  ['{"clock": false} keeps it', { clock: false }, 3600],
  ['an empty body keeps it', {}, 3600],
])('reset with %s', async (_label, body, expectedOffset) => {
  const h = await startHarness();
  await expectStatus(h.advance(3600), 200);
  await expectStatus(h.control('POST', '/reset', body), 200);
  const clock = await h.control('GET', '/clock');
  expect(clock.body, clock.text).toEqual({ now: at(expectedOffset), frozen: true });
});

test('reset with {"clock": true} on a sandbox started on real time goes back to real time, running', async () => {
  const sb = await createSandbox({ log: () => {} });
  try {
    await sb.app.request('/_sandbox/clock', { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ now: '2030-01-01T00:00:00Z', frozen: true }) });
    const res = await sb.app.request('/_sandbox/reset', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ clock: true }) });
    expect(res.status, await res.text()).toBe(200);
    expect(sb.deps.clock.frozen).toBe(false);
    expect(Math.abs(sb.deps.clock.nowMs() - Date.now())).toBeLessThan(5_000);
  } finally {
    await sb.close();
  }
});

test('reset with a clock that is not a boolean is a 400 that changes nothing', async () => {
  const h = await startHarness();
  const project = await h.v2('POST', '/projects', { body: { name: 'Fica', color: '#123456' } });
  expect(project.status, project.text).toBe(201);
  const res = await h.control('POST', '/reset', { clock: 'yes' });
  expectEnvelope(res, 400, 'VALIDATION_ERROR');
  await expectStatus(h.v2('GET', `/projects/${project.body.id}`), 200);
});

test('a token issued before a reset still works for the fixtures credential after it', async () => {
  const h = await startHarness();
  const token = await h.token();
  await expectStatus(h.control('POST', '/reset'), 200);
  await expectStatus(h.api('GET', '/v2/account', { token }), 200);
});

test('a token of a tenant that the reset removed gets 401', async () => {
  const h = await startHarness();
  const t = await h.control('POST', '/accounts', {});
  const token = await h.token(t.body.credentials[0].clientId, t.body.credentials[0].clientSecret);
  await expectStatus(h.control('POST', '/reset'), 200);
  expectEnvelope(await h.api('GET', '/v2/account', { token }), 401, 'UNAUTHORIZED');
});

test('GET /_sandbox/health reports status, version, clock and state size', async () => {
  const h = await startHarness();
  const res = await h.control('GET', '/health');
  expect(res.status, res.text).toBe(200);
  expect(res.body, res.text).toMatchObject({
    status: 'ok',
    version: '0.1.0',
    now: T0,
    frozen: true,
    uptimeSeconds: expect.any(Number),
    accounts: 1,
    persistent: false,
    pendingJobs: 0,
  });
  await expectStatus(h.control('POST', '/accounts', {}), 201);
  const health = await h.control('GET', '/health');
  expect(health.body.accounts, health.text).toBe(2);
});

const ADMIN = 's3cret-admin-token';
const CONTROL_CALLS: [string, string, unknown][] = [
  ['GET', '/_sandbox/health', undefined],
  ['GET', '/_sandbox/clock', undefined],
  ['POST', '/_sandbox/clock/advance', { seconds: 1 }],
  ['GET', '/_sandbox/accounts', undefined],
  ['GET', `/_sandbox/accounts/${DEFAULT.accountId}`, undefined],
  ['POST', '/_sandbox/accounts', {}],
  ['POST', '/_sandbox/reset', undefined],
];

test.each(CONTROL_CALLS)('with an admin token set, %s %s needs X-Sandbox-Token', async (method, path, body) => {
  const h = await startHarness({ adminToken: ADMIN });
  const opts = body === undefined ? {} : { body };
  expectEnvelope(await h.api(method, path, opts), 401, 'UNAUTHORIZED');
  expectEnvelope(await h.api(method, path, { ...opts, headers: { 'x-sandbox-token': 'wrong-token' } }), 401, 'UNAUTHORIZED');
  expectEnvelope(await h.api(method, path, { ...opts, headers: { 'x-sandbox-token': `${ADMIN}x` } }), 401, 'UNAUTHORIZED');
  const ok = await h.api(method, path, { ...opts, headers: { 'x-sandbox-token': ADMIN } });
  expect(ok.status >= 200 && ok.status < 300, ok.text).toBe(true);
});

test('with an admin token set, a refused control call changes nothing', async () => {
  const h = await startHarness({ adminToken: ADMIN });
  await expectStatus(h.api('POST', '/_sandbox/accounts', { body: {} }), 401);
  await expectStatus(h.api('POST', '/_sandbox/clock/advance', { body: { seconds: 600 } }), 401);
  const list = await h.api('GET', '/_sandbox/accounts', { headers: { 'x-sandbox-token': ADMIN } });
  expect(list.body.items, list.text).toHaveLength(1);
  const clock = await h.api('GET', '/_sandbox/clock', { headers: { 'x-sandbox-token': ADMIN } });
  expect(clock.body.now, clock.text).toBe(T0);
});

test('with an admin token set, the v2 API and the documents need no X-Sandbox-Token', async () => {
  const h = await startHarness({ adminToken: ADMIN });
  const account = await h.v2('GET', '/account');
  expect(account.status, account.text).toBe(200);
  const project = await h.v2('POST', '/projects', { body: { name: 'Sem token de admin', color: '#123456' } });
  expect(project.status, project.text).toBe(201);
  await expectStatus(h.api('GET', '/openapi.json'), 200);
  await expectStatus(h.api('GET', '/.well-known/jwks.json'), 200);
});

test('without an admin token, control calls need no X-Sandbox-Token', async () => {
  const h = await startHarness();
  await expectStatus(h.api('GET', '/_sandbox/health'), 200);
});
