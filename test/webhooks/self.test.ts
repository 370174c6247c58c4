// No webhook is delivered to the sandbox itself (sandbox.md 11): a URL that reaches one of its listeners is refused
// where a route stores it (400 naming the field, nothing stored) and again at each delivery attempt (no request sent),
// unless --allow-self-webhooks; deliveries never carry the admin token. All on real ports.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/app';
import { readCliConfig, type SandboxOptions } from '../../src/config';
import { createOwnListeners } from '../../src/webhooks/own-listeners';
import { freePort, http, type HttpResponse } from '../foundation/process';
import { recBody } from '../helpers/api-pix-rec';
import { KEYS, basic } from '../helpers/api-pix';
import { DEFAULT, T0 } from '../helpers/harness';
import { startReceiver, type Receiver } from '../helpers/receiver';

const home = mkdtempSync(join(tmpdir(), 'pix-sandbox-self-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const o of open.splice(0)) await o.close();
});

async function listening(options: SandboxOptions = {}, port = 0): Promise<{ sb: Sandbox; url: string; logs: string[] }> {
  const logs: string[] = [];
  const sb = await createSandbox({ log: (line) => logs.push(line), clockStart: T0, freezeClock: true, home, ...options });
  open.push(sb);
  const url = await sb.listen({ port });
  return { sb, url, logs };
}

/** A transaction of `accountId` as the control API lists it. */
async function transaction(url: string, accountId: string, id: string) {
  const list = await http(url, 'GET', `/_sandbox/accounts/${accountId}/transactions?limit=100`);
  expect(list.status, list.text).toBe(200);
  return list.body.items.find((t: { id: string }) => t.id === id);
}

async function receiver(): Promise<Receiver> {
  const r = await startReceiver();
  open.push(r);
  return r;
}

/** A token of the standard face for the default tenant, over the socket. */
async function pixToken(url: string): Promise<string> {
  const res = await fetch(`${url}/api-pix/oauth/token`, {
    method: 'POST',
    headers: { authorization: basic(DEFAULT.full.clientId, DEFAULT.full.clientSecret), 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials',
  });
  const body = (await res.json()) as { access_token: string };
  expect(res.status, JSON.stringify(body)).toBe(200);
  return body.access_token;
}

/** The state a refused registration must leave as it was: the default tenant's endpoints and the accounts. */
async function stored(url: string) {
  const webhooks = await http(url, 'GET', `/_sandbox/accounts/${DEFAULT.accountId}/webhooks`);
  const accounts = await http(url, 'GET', '/_sandbox/accounts');
  expect(webhooks.status, webhooks.text).toBe(200);
  return { webhooks: webhooks.text, accounts: accounts.text };
}

interface Route {
  name: string;
  /** Registers `hook`; answers the response and the field the 400 must name. */
  send(url: string, hook: string, token: string): Promise<{ res: HttpResponse; field: string; pix: boolean }>;
}

const control = (name: string, method: string, path: string, body: (hook: string) => unknown, field: string): Route => ({
  name,
  send: async (url, hook) => ({ res: await http(url, method, path, { body: body(hook) }), field, pix: false }),
});
const apiPix = (path: string): Route => ({
  name: `PUT /api-pix/v2${path}`,
  send: async (url, hook, token) => ({ res: await http(url, 'PUT', `/api-pix/v2${path}`, { token, body: { webhookUrl: hook } }), field: 'webhook.webhookUrl', pix: true }),
});

const ROUTES: Route[] = [
  control('POST /_sandbox/accounts', 'POST', '/_sandbox/accounts', (url) => ({ name: 'x', webhooks: [{ url: 'http://127.0.0.1:9/fine' }, { url }] }), 'webhooks[1].url'),
  control('POST /_sandbox/accounts/{id}/webhooks', 'POST', `/_sandbox/accounts/${DEFAULT.accountId}/webhooks`, (url) => ({ url }), 'url'),
  control('PATCH /_sandbox/webhooks/{endpointId}', 'PATCH', `/_sandbox/webhooks/${DEFAULT.webhookId}`, (url) => ({ url }), 'url'),
  apiPix(`/webhook/${KEYS.evp}`),
  apiPix('/webhookrec'),
  apiPix('/webhookcobr'),
];

describe('registration: a URL that reaches one of the listeners is a 400 naming the field, and nothing is stored', () => {
  let sb: Sandbox;
  let url: string;
  let port: number;
  let servicePort: number;
  let token: string;
  // One sandbox for the table: a refused request changes nothing, which each row checks.
  beforeAll(async () => {
    sb = await createSandbox({ log: () => {}, clockStart: T0, freezeClock: true, home, servicePort: 0 });
    url = await sb.listen({ port: 0 });
    port = Number(new URL(url).port);
    servicePort = Number(new URL(sb.serviceUrl!).port);
    token = await pixToken(url);
  });
  afterAll(() => sb.close());

  const SELF: Array<[string, () => string]> = [
    ['127.0.0.1 at its port', () => `http://127.0.0.1:${port}/_sandbox/reset`],
    ['localhost', () => `http://localhost:${port}/hook`],
    ['::1', () => `http://[::1]:${port}/hook`],
    ['0.0.0.0', () => `http://0.0.0.0:${port}/hook`],
    ['another loopback address, 127.0.0.2', () => `http://127.0.0.2:${port}/hook`],
    ['an IPv4-mapped IPv6 loopback', () => `http://[::ffff:127.0.0.1]:${port}/hook`],
    ['https at its port', () => `https://localhost:${port}/hook`],
    ['the service port', () => `https://127.0.0.1:${servicePort}/hook`],
  ];
  const table = ROUTES.flatMap((route) => SELF.map(([label, hook]) => [route.name, label, route, hook] as const));

  test.each(table)('%s with %s', async (_name, _label, route, hook) => {
    const before = await stored(url);
    const { res, field, pix } = await route.send(url, hook(), token);
    expect(res.status, res.text).toBe(400);
    if (pix) {
      expect(res.body.violacoes, res.text).toEqual([expect.objectContaining({ propriedade: field })]);
      expect(res.body.violacoes[0].razao, res.text).toContain('--allow-self-webhooks');
    } else {
      expect(res.body.details.code, res.text).toBe('VALIDATION_ERROR');
      expect(res.body.details.fields, res.text).toEqual([{ field, message: expect.stringContaining('points at the sandbox itself') }]);
      expect(res.body.message, res.text).toContain('a receiver on another port');
    }
    expect(await stored(url)).toEqual(before);
    if (pix) {
      const path = route.name.replace('PUT /api-pix/v2', '');
      const read = await http(url, 'GET', `/api-pix/v2${path}`, { token });
      expect(read.status, `nothing stored: ${read.text}`).toBe(404);
    }
  });

  test.each(ROUTES.map((r) => [r.name, r] as const))('%s takes a receiver on another port of 127.0.0.1', async (_name, route) => {
    const r = await receiver();
    const { res } = await route.send(url, `${r.url}/hook`, token);
    expect(res.status, res.text).toBeLessThan(300);
  });
});

test('the exact report: a webhookrec at the control API cancelling another tenant\'s charge is refused; the charge stays pending', async () => {
  const { url } = await listening();
  const other = await http(url, 'POST', '/_sandbox/accounts', { body: { name: 'other tenant' } });
  expect(other.status, other.text).toBe(201);
  const charge = await http(url, 'POST', `/_sandbox/accounts/${other.body.id}/charges`, { body: { amount: 10, description: 'not yours' } });
  expect(charge.status, charge.text).toBe(201);
  const token = await pixToken(url);
  const put = await http(url, 'PUT', '/api-pix/v2/webhookrec', { token, body: { webhookUrl: `${url}/_sandbox/transactions/${charge.body.id}/cancel?x=` } });
  expect(put.status, put.text).toBe(400);
  expect(put.body.violacoes[0].propriedade, put.text).toBe('webhook.webhookUrl');
  const rec = await http(url, 'POST', '/api-pix/v2/rec', { token, body: recBody() });
  expect(rec.status, rec.text).toBe(201);
  expect((await http(url, 'PATCH', `/api-pix/v2/rec/${rec.body.idRec}`, { token, body: { status: 'CANCELADA' } })).status).toBe(200);
  await http(url, 'POST', '/_sandbox/settle');
  expect((await transaction(url, other.body.id, charge.body.id)).status).toBe('pending');
});

test('with --allow-self-webhooks the same webhookrec is accepted and its delivery reaches the control API', async () => {
  const { url } = await listening({ allowSelfWebhooks: true });
  const other = await http(url, 'POST', '/_sandbox/accounts', { body: { name: 'other tenant' } });
  const charge = await http(url, 'POST', `/_sandbox/accounts/${other.body.id}/charges`, { body: { amount: 10, description: 'a test that wants it' } });
  const token = await pixToken(url);
  const put = await http(url, 'PUT', '/api-pix/v2/webhookrec', { token, body: { webhookUrl: `${url}/_sandbox/transactions/${charge.body.id}/cancel?x=` } });
  expect(put.status, put.text).toBe(200);
  expect((await http(url, 'POST', '/api-pix/v2/rec', { token, body: recBody() })).status).toBe(201);
  await http(url, 'POST', '/_sandbox/settle');
  expect((await transaction(url, other.body.id, charge.body.id)).status).toBe('cancelled');
});

test('at delivery: a fixture endpoint (--webhook-url) at the sandbox\'s own port is said at start, and each attempt is a failed one that sent nothing', async () => {
  const port = await freePort();
  const { url, logs } = await listening({ webhookUrl: `http://localhost:${port}/_sandbox/reset` }, port);
  expect(logs.join('\n')).toMatch(new RegExp(`webhook endpoint ${DEFAULT.webhookId} .* points at the sandbox itself .*--allow-self-webhooks`));
  const auth = await http(url, 'POST', '/v2/auth', { body: { client_id: DEFAULT.full.clientId, client_secret: DEFAULT.full.clientSecret } });
  const charge = await http(url, 'POST', '/v2/pix', { token: auth.body.access_token, body: { amount: 100, description: 'self' } });
  expect(charge.status, charge.text).toBe(201);
  expect((await http(url, 'POST', `/_sandbox/transactions/${charge.body.id}/pay`)).status).toBe(200);
  await http(url, 'POST', '/_sandbox/settle');
  const log = await http(url, 'GET', `/_sandbox/accounts/${DEFAULT.accountId}/deliveries`);
  const attempt = log.body.items[0].attempts[0];
  expect(attempt, log.text).toMatchObject({ statusCode: null, error: expect.stringMatching(/^refused, no request sent: the URL points at the sandbox itself \(localhost:\d+ is this sandbox's own listener\)/) });
  // No reset ran: the charge is still there.
  expect(await transaction(url, DEFAULT.accountId, charge.body.id)).toBeDefined();
});

test('a delivery to a receiver on another port goes out, without the admin token in any header', async () => {
  const adminToken = 'admin-secret-never-sent';
  const r = await receiver();
  const { url } = await listening({ adminToken });
  const headers = { 'x-sandbox-token': adminToken };
  const added = await http(url, 'POST', `/_sandbox/accounts/${DEFAULT.accountId}/webhooks`, { headers, body: { url: `${r.url}/hook` } });
  expect(added.status, added.text).toBe(201);
  const auth = await http(url, 'POST', '/v2/auth', { body: { client_id: DEFAULT.full.clientId, client_secret: DEFAULT.full.clientSecret } });
  const charge = await http(url, 'POST', '/v2/pix', { token: auth.body.access_token, body: { amount: 100, description: 'out' } });
  expect((await http(url, 'POST', `/_sandbox/transactions/${charge.body.id}/pay`, { headers })).status).toBe(200);
  const [got] = await r.waitFor(1);
  expect(got!.path).toBe('/hook');
  expect(got!.headers['x-sandbox-token']).toBeUndefined();
  expect(got!.headers.authorization).toBeUndefined();
  expect(JSON.stringify(got!.headers)).not.toContain(adminToken);
});

describe('the rule, with a name resolved at delivery (lookup given)', () => {
  const lookedUp: string[] = [];
  const own = createOwnListeners({
    publicHost: 'sandbox.example:8443',
    tlsNames: ['sandbox.lan'],
    lookup: async (name) => (lookedUp.push(name), name === 'rebound.example' ? ['127.0.0.1'] : ['93.184.216.34']),
  });
  own.add('http://127.0.0.1:4747');

  test.each([
    ['http://rebound.example:4747/x', true, true],
    ['http://far.example:4747/x', false, true],
    ['http://rebound.example:3000/x', false, false],
    ['http://sandbox.lan:4747/x', true, false],
    ['http://sandbox.lan:3000/x', false, false],
    ['https://sandbox.example:8443/x', true, false],
    ['http://127.0.0.1:3000/x', false, false],
  ])('%s: refused %s, looked up %s', async (url, refused, looks) => {
    lookedUp.length = 0;
    expect((await own.atDelivery(url)) !== undefined).toBe(refused);
    expect(lookedUp.length > 0).toBe(looks);
  });

  test('with no listener, or with allowSelf, nothing is refused', async () => {
    expect(createOwnListeners({ publicHost: 'pix-sandbox.test' }).check('http://127.0.0.1:4747/')).toBeUndefined();
    const allowed = createOwnListeners({ publicHost: 'pix-sandbox.test', allowSelf: true });
    allowed.add('http://127.0.0.1:4747');
    expect(await allowed.atDelivery('http://127.0.0.1:4747/')).toBeUndefined();
  });
});

test.each([
  [['--allow-self-webhooks'], {}, true],
  [[], { SANDBOX_ALLOW_SELF_WEBHOOKS: '1' }, true],
  [[], {}, false],
] as const)('argv %j with env %j: allowSelfWebhooks %s', (argv, env, allowed) => {
  const config = readCliConfig([...argv], env);
  expect('options' in config && config.options.allowSelfWebhooks).toBe(allowed);
});
