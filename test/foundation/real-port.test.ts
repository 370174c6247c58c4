// createSandbox() builds without listening; listen({port: 0}) serves it on a free port (sandbox.md 1, STYLE.md habit 1).
import { afterEach, expect, test } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/app';
import { DEFAULT, T0 } from '../helpers/harness';
import { http } from './process';

const open: Sandbox[] = [];
afterEach(async () => {
  for (const sb of open.splice(0)) await sb.close();
});

async function listening() {
  const sb = await createSandbox({ log: () => {}, clockStart: T0, freezeClock: true });
  open.push(sb);
  expect(sb.url, 'a sandbox listens nowhere until listen() is called').toBeUndefined();
  const url = await sb.listen({ port: 0 });
  return { sb, url };
}

test('listen({port: 0}) picks a free port and answers on it', async () => {
  const { sb, url } = await listening();
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  expect(Number(new URL(url).port)).toBeGreaterThan(0);
  expect(sb.url).toBe(url);
  const health = await http(url, 'GET', '/_sandbox/health');
  expect(health.status, health.text).toBe(200);
  expect(health.body.now, health.text).toBe(T0);
});

test('the v2 API works over the socket: auth, then the account', async () => {
  const { url } = await listening();
  const auth = await http(url, 'POST', '/v2/auth', { body: { client_id: DEFAULT.full.clientId, client_secret: DEFAULT.full.clientSecret } });
  expect(auth.status, auth.text).toBe(200);
  const account = await http(url, 'GET', '/v2/account', { token: auth.body.access_token });
  expect(account.status, account.text).toBe(200);
  expect(account.body.balance.available.amount, account.text).toBe(100000);
});

test('a body over 512 KiB sent over the socket answers 413 in the envelope', async () => {
  const { url } = await listening();
  const auth = await http(url, 'POST', '/v2/auth', { body: { client_id: DEFAULT.full.clientId, client_secret: DEFAULT.full.clientSecret } });
  const res = await http(url, 'POST', '/v2/projects', { token: auth.body.access_token, body: { name: 'x'.repeat(600 * 1024), color: '#123456' } });
  expect(res.status, res.text.slice(0, 300)).toBe(413);
  expect(res.body.details.code, res.text.slice(0, 300)).toBe('PAYLOAD_TOO_LARGE');
});

test('a POST without a body (and so without a content type) over the socket answers 400 listing the missing fields', async () => {
  const { url } = await listening();
  const auth = await http(url, 'POST', '/v2/auth', { body: { client_id: DEFAULT.full.clientId, client_secret: DEFAULT.full.clientSecret } });
  const res = await http(url, 'POST', '/v2/projects', { token: auth.body.access_token });
  expect(res.status, res.text).toBe(400);
  expect(res.body.details, res.text).toMatchObject({ code: 'VALIDATION_ERROR', fields: [{ field: 'name' }, { field: 'color' }] });
});

test.each([
  ['malformed JSON', 'POST', '/v2/projects', { 'content-type': 'application/json' }, '{"name":', 400, 'MALFORMED_JSON'],
  ['a text/plain body', 'POST', '/v2/projects', { 'content-type': 'text/plain' }, '{"name":"x","color":"#123456"}', 415, 'UNSUPPORTED_MEDIA_TYPE'],
  ['an empty JSON body', 'POST', '/v2/sub-accounts', { 'content-type': 'application/json' }, '', 400, 'VALIDATION_ERROR'],
  ['an unknown route', 'GET', '/v2/nowhere', {}, undefined, 404, 'ROUTE_NOT_FOUND'],
] as const)('over the socket, %s answers %s %s in the envelope', async (_label, method, path, headers, body, status, code) => {
  const { url } = await listening();
  const auth = await http(url, 'POST', '/v2/auth', { body: { client_id: DEFAULT.full.clientId, client_secret: DEFAULT.full.clientSecret } });
  const res = await fetch(`${url}${path}`, { method, headers: { ...headers, authorization: `Bearer ${auth.body.access_token}` }, body });
  const text = await res.text();
  expect(res.status, text).toBe(status);
  expect(JSON.parse(text), text).toMatchObject({ statusCode: status, timestamp: T0, details: { code } });
});

test('two sandboxes listen side by side on different ports, each with its own state', async () => {
  const a = await listening();
  const b = await listening();
  expect(a.url).not.toBe(b.url);
  const created = await http(a.url, 'POST', '/_sandbox/accounts', { body: { name: 'Só em A' } });
  expect(created.status, created.text).toBe(201);
  const accountsA = await http(a.url, 'GET', '/_sandbox/accounts');
  expect(accountsA.body.items, accountsA.text).toHaveLength(2);
  const accountsB = await http(b.url, 'GET', '/_sandbox/accounts');
  expect(accountsB.body.items, accountsB.text).toHaveLength(1);
});

test('close() stops answering and clears the url', async () => {
  const { sb, url } = await listening();
  await sb.close();
  open.splice(open.indexOf(sb), 1);
  expect(sb.url).toBeUndefined();
  await expect(fetch(`${url}/_sandbox/health`)).rejects.toThrow();
});
