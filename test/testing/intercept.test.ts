// sandbox.intercept() (sandbox.md 8): requests of this process to a base URL, through global fetch and node:http /
// node:https, are answered by the sandbox's routes in process; every other request goes out untouched. The "other"
// target is a local server on 127.0.0.1 (no external network here): it also stands in for the real service behind a
// base URL, to show that restore() and stop() send requests out again.
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { startSandbox, type TestSandbox } from '../../src/testing';

let sandbox: TestSandbox;
let other: Server;
let otherUrl: string;
const extra: TestSandbox[] = [];

beforeEach(async () => {
  sandbox = await startSandbox({ log: () => {} });
  other = createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ from: 'the other server', path: req.url }));
  });
  await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
  otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
});

afterEach(async () => {
  await sandbox.stop();
  for (const s of extra.splice(0)) await s.stop();
  await new Promise((r) => other.close(r));
});

/** node:http(s).request as axios and the SDKs send it; resolves status and parsed body. */
function nodeRequest(url: string, opts: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const send = url.startsWith('https:') ? httpsRequest : httpRequest;
    const req = send(url, { method: opts.method ?? 'GET', headers: opts.headers }, (res: IncomingMessage) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

describe('while intercepting', () => {
  test('global fetch to the v2 base gets a token and creates a charge in the sandbox, seen through its control API', async () => {
    sandbox.intercept({ v2: 'https://api.example.test/v2' });
    const auth = await fetch('https://api.example.test/v2/auth', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: sandbox.credentials.clientId, client_secret: sandbox.credentials.clientSecret }),
    });
    const { access_token } = (await auth.json()) as { access_token: string };
    expect(auth.status).toBe(200);
    const res = await fetch('https://api.example.test/v2/pix', {
      method: 'POST',
      headers: { authorization: `Bearer ${access_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ amount: 12.34, description: 'intercepted' }),
    });
    const charge = (await res.json()) as { id: string; amount: number };
    expect(res.status, JSON.stringify(charge)).toBe(201);
    expect(charge.amount).toBe(12.34);
    const paid = await sandbox.control.transactions.pay(charge.id);
    expect(paid).toMatchObject({ id: charge.id, status: 'completed' });
  });

  test('a node:https request to the v1 base (the official SDK\'s https://api.pague.dev/v1) is answered by the v1 routes', async () => {
    sandbox.intercept({ v1: 'https://api.pague.dev/v1' });
    const res = await nodeRequest('https://api.pague.dev/v1/customers?limit=5', { headers: { 'x-api-key': sandbox.apiKey! } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const unauthorized = await nodeRequest('https://api.pague.dev/v1/customers', { headers: { 'x-api-key': 'wrong' } });
    expect(unauthorized.status).toBe(401);
  });

  test('a node:http POST with a body reaches the route whole', async () => {
    sandbox.intercept({ v2: 'http://pix.internal:8080/api/v2/' });
    const body = JSON.stringify({ client_id: sandbox.credentials.clientId, client_secret: sandbox.credentials.clientSecret });
    const res = await nodeRequest('http://pix.internal:8080/api/v2/auth', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(typeof res.body.access_token).toBe('string');
  });

  test('requests to any other URL go out untouched, through fetch and node:http', async () => {
    sandbox.intercept({ v2: 'https://api.example.test/v2', v1: 'https://api.pague.dev/v1' });
    const viaFetch = await fetch(`${otherUrl}/v2/pix?x=1`);
    expect(await viaFetch.json()).toEqual({ from: 'the other server', path: '/v2/pix?x=1' });
    expect(await nodeRequest(`${otherUrl}/v1/customers`)).toEqual({ status: 200, body: { from: 'the other server', path: '/v1/customers' } });
    // The sandbox's own port is another URL too.
    expect((await fetch(`${sandbox.url}/_sandbox/health`)).status).toBe(200);
  });

  test('a path that only starts like the base is not the base', async () => {
    sandbox.intercept({ v2: `${otherUrl}/v2` });
    expect(await nodeRequest(`${otherUrl}/v2x/pix`)).toEqual({ status: 200, body: { from: 'the other server', path: '/v2x/pix' } });
    expect((await nodeRequest(`${otherUrl}/v2/account`)).status).toBe(401); // the sandbox: no token
  });
});

describe('restoring', () => {
  test('restore() sends requests to the base out again, and a second restore() is harmless', async () => {
    const interception = sandbox.intercept({ v2: `${otherUrl}/v2` });
    expect((await fetch(`${otherUrl}/v2/account`)).status).toBe(401); // answered by the sandbox: no token
    interception.restore();
    interception.restore();
    expect(await (await fetch(`${otherUrl}/v2/pix`)).json()).toEqual({ from: 'the other server', path: '/v2/pix' });
    expect(await nodeRequest(`${otherUrl}/v2/pix`)).toEqual({ status: 200, body: { from: 'the other server', path: '/v2/pix' } });
    // ... and the base can be intercepted again.
    sandbox.intercept({ v2: `${otherUrl}/v2` }).restore();
  });

  test('stopping a sandbox with interception active restores it', async () => {
    const second = await startSandbox({ log: () => {} });
    extra.push(second);
    second.intercept({ v1: `${otherUrl}/v1` });
    expect((await nodeRequest(`${otherUrl}/v1/customers`)).status).toBe(401);
    await second.stop();
    expect(await nodeRequest(`${otherUrl}/v1/customers`)).toEqual({ status: 200, body: { from: 'the other server', path: '/v1/customers' } });
    expect(await (await fetch(`${otherUrl}/v1/customers`)).json()).toEqual({ from: 'the other server', path: '/v1/customers' });
  });
});

describe('bad input', () => {
  test.each([
    [{ v2: '/v2' }, "intercept(): v2 '/v2' is not an absolute URL. Give the base URL your client uses, with its scheme, such as https://api.pague.dev/v2."],
    [{ v1: 'api.pague.dev/v1' }, "intercept(): v1 'api.pague.dev/v1' is not an absolute URL."],
    [{ v1: 'ftp://api.pague.dev/v1' }, "intercept(): v1 'ftp://api.pague.dev/v1' is not an http(s) URL."],
    [{ v2: 'https://api.example.test/v2?x=1' }, "has a query or fragment. Give the base URL alone, such as https://api.example.test/v2."],
    [{}, 'intercept(): give at least one base URL'],
    [{ v2: 'https://same.test/api', v1: 'https://same.test/api/' }, 'intercept(): v1 https://same.test/api is already intercepted in this process.'],
  ])('intercept(%j) throws a clear error and intercepts nothing', async (bases, message) => {
    expect(() => sandbox.intercept(bases)).toThrow(message);
    // Nothing was registered: the first base of the refused call can still be intercepted.
    const first = Object.values(bases)[0];
    if (first && /^https?:\/\/[^?]*$/.test(first)) sandbox.intercept({ v2: first }).restore();
  });

  test('one base URL intercepted twice, by the same sandbox or another, throws; the first interception keeps working', async () => {
    sandbox.intercept({ v1: 'https://api.pague.dev/v1' });
    expect(() => sandbox.intercept({ v1: 'https://api.pague.dev/v1/' })).toThrow('intercept(): v1 https://api.pague.dev/v1 is already intercepted in this process. Call restore() on that interception first');
    const second = await startSandbox({ log: () => {} });
    extra.push(second);
    expect(() => second.intercept({ v1: 'https://api.pague.dev/v1' })).toThrow('is already intercepted in this process');
    expect((await nodeRequest('https://api.pague.dev/v1/customers', { headers: { 'x-api-key': sandbox.apiKey! } })).status).toBe(200);
  });
});
