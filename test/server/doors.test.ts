// The doors of a local server (sandbox.md 11): foreign Origins and cross-site requests cannot change state, foreign
// Host names (DNS rebinding) get no answer at all, and a refused request changed nothing.
import { afterEach, describe, expect, test } from 'vitest';
import { readCliConfig } from '../../src/config';
import { DEFAULT, startHarness, type Harness } from '../helpers/harness';

let h: Harness;
afterEach(async () => {
  await h?.sb.close();
});

const accountPath = `/_sandbox/accounts/${DEFAULT.accountId}`;
const adjustPath = `${accountPath}/adjustments`;

/** The state a drive-by write would change: the account's transactions and the number of accounts. */
async function fingerprint() {
  const txs = await h.api('GET', `${accountPath}/transactions?limit=100`);
  const accounts = await h.api('GET', '/_sandbox/accounts');
  const clock = await h.api('GET', '/_sandbox/clock');
  expect(txs.status, txs.text).toBe(200);
  return { txs: txs.body.total, accounts: accounts.text, account: (await h.api('GET', accountPath)).text, clock: clock.text };
}

describe('Origin: state-changing requests from another origin are refused, changing nothing', () => {
  const foreign = ['http://evil.example', 'http://localhost:8000', 'http://127.0.0.1:4748', 'https://localhost', 'null'];

  test.each([
    ['POST', '/_sandbox/reset', undefined],
    ['POST', adjustPath, { amount: 5 }],
    ['POST', '/_sandbox/accounts', { name: 'drive-by' }],
    ['PATCH', accountPath, { status: 'suspended' }],
    ['DELETE', accountPath, undefined],
    ['PUT', '/_sandbox/clock', { now: '2030-01-01T00:00:00.000Z', frozen: true }],
    ['POST', '/v2/charges', { amount: 10 }],
    ['POST', '/v1/charges', { amount: 10 }],
    // A face added later (or a route that does not exist): refused before any route runs, no list of prefixes.
    ['POST', '/api-pix/cob', { valor: { original: '1.00' } }],
  ])('%s %s with a foreign Origin answers 403 ORIGIN_NOT_ALLOWED', async (method, path, body) => {
    h = await startHarness();
    const token = await h.token();
    const before = await fingerprint();
    for (const origin of foreign) {
      const res = await h.api(method, path, { body, token, headers: { origin, 'x-api-key': DEFAULT.apiKey } });
      expect(res.status, `${origin}: ${res.text}`).toBe(403);
      expect(res.body.details.code).toBe('ORIGIN_NOT_ALLOWED');
      expect(res.body.statusCode).toBe(403);
      expect(res.body.message).toContain('--allowed-origin');
      expect(res.headers.get('x-trace-id')).toBe(res.body.traceId);
    }
    expect(await fingerprint()).toEqual(before);
  });

  test.each([
    ['cross-site', 403],
    ['same-site', 403],
    [undefined, 403],
    ['same-origin', 200],
  ])('Origin: null (a form post under Referrer-Policy: no-referrer) with Sec-Fetch-Site %s answers %i', async (site, status) => {
    h = await startHarness();
    const headers: Record<string, string> = { origin: 'null' };
    if (site) headers['sec-fetch-site'] = site;
    const res = await h.api('POST', '/_sandbox/clock/advance', { body: { seconds: 60 }, headers });
    expect(res.status, res.text).toBe(status);
  });

  test('Sec-Fetch-Site: cross-site without an Origin is refused too', async () => {
    h = await startHarness();
    const before = await fingerprint();
    const res = await h.api('POST', '/_sandbox/reset', { headers: { 'sec-fetch-site': 'cross-site' } });
    expect(res.status, res.text).toBe(403);
    expect(res.body.details.code).toBe('ORIGIN_NOT_ALLOWED');
    expect(await fingerprint()).toEqual(before);
  });

  test('Sec-Fetch-Site: cross-site is refused even beside the sandbox\'s own Origin: either signal refuses', async () => {
    h = await startHarness();
    const before = await fingerprint();
    const res = await h.sb.app.request('http://127.0.0.1:4747/_sandbox/reset', { method: 'POST', headers: { origin: 'http://127.0.0.1:4747', 'sec-fetch-site': 'cross-site' } });
    expect(res.status, await res.text()).toBe(403);
    expect(await fingerprint()).toEqual(before);
  });

  test('a write with no Origin (curl, SDKs, suites), with the own Origin, or same-origin fetch metadata goes through', async () => {
    h = await startHarness();
    // The own origin is the address the request came to: the listener's, or app.request's base (port 80 written out).
    const own = h.url ?? 'http://localhost';
    const shouted = h.url ? h.url.toUpperCase() : 'HTTP://LOCALHOST:80';
    for (const headers of [{}, { origin: own }, { origin: shouted }, { 'sec-fetch-site': 'same-origin' }, { 'sec-fetch-site': 'none' }] as Record<string, string>[]) {
      const res = await h.api('POST', adjustPath, { body: { amount: 1 }, headers });
      expect(res.status, `${JSON.stringify(headers)}: ${res.text}`).toBe(201);
    }
  });

  test('the own origin is the request Host with its port: a page on another port of the same host is foreign', async () => {
    h = await startHarness();
    const own = await h.sb.app.request('http://127.0.0.1:4747/_sandbox/reset', { method: 'POST', headers: { origin: 'http://127.0.0.1:4747' } });
    expect(own.status, await own.text()).toBe(200);
    const other = await h.sb.app.request('http://127.0.0.1:4747/_sandbox/reset', { method: 'POST', headers: { origin: 'http://127.0.0.1:4748' } });
    expect(other.status).toBe(403);
  });

  test('reads are never refused for their Origin, and an origin given with allowedOrigins may write', async () => {
    h = await startHarness({ allowedOrigins: ['http://localhost:5173'] });
    const read = await h.api('GET', accountPath, { headers: { origin: 'http://evil.example' } });
    expect(read.status, read.text).toBe(200);
    const allowed = await h.api('POST', adjustPath, { body: { amount: 1 }, headers: { origin: 'http://localhost:5173' } });
    expect(allowed.status, allowed.text).toBe(201);
    const other = await h.api('POST', adjustPath, { body: { amount: 1 }, headers: { origin: 'http://localhost:5174' } });
    expect(other.status, other.text).toBe(403);
  });
});

describe('Host: only names the sandbox is known by are answered (DNS rebinding)', () => {
  test.each(['evil.example', 'evil.example:4747', 'localhost.evil.example', '127.0.0.1.nip.io', 'sandbox'])('Host %s gets 421 HOST_NOT_ALLOWED, even for a read, with no secret in it', async (host) => {
    h = await startHarness();
    const res = await h.sb.app.request(`http://${host}${accountPath}`);
    const text = await res.text();
    expect(res.status, text).toBe(421);
    const body = JSON.parse(text);
    expect(body.details.code).toBe('HOST_NOT_ALLOWED');
    expect(body.error).toBe('MisdirectedRequest');
    expect(body.message).toContain('--allowed-host');
    expect(text).not.toContain(DEFAULT.full.clientSecret);
  });

  test('a write to a foreign Host is refused before it runs', async () => {
    h = await startHarness();
    const before = await fingerprint();
    const res = await h.sb.app.request(`http://evil.example${adjustPath}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"amount":5}' });
    expect(res.status).toBe(421);
    expect(await fingerprint()).toEqual(before);
  });

  test.each(['localhost', 'localhost:4747', 'app.localhost:4747', '127.0.0.1:4747', '10.0.0.5', '[::1]:4747', 'pix-sandbox.test', 'LOCALHOST.'])('Host %s is answered', async (host) => {
    h = await startHarness();
    const res = await h.sb.app.request(`http://${host}${accountPath}`);
    expect(res.status, await res.text()).toBe(200);
  });

  test('names given with allowedHosts (a compose service name) and the public host are answered; * answers any', async () => {
    h = await startHarness({ allowedHosts: ['sandbox'], publicHost: 'pix.lan:4747' });
    for (const host of ['sandbox:4747', 'pix.lan', 'pix.lan:4747']) expect((await h.sb.app.request(`http://${host}${accountPath}`)).status, host).toBe(200);
    expect((await h.sb.app.request(`http://other${accountPath}`)).status).toBe(421);
    await h.sb.close();
    h = await startHarness({ allowedHosts: ['*'] });
    expect((await h.sb.app.request(`http://anything.example${accountPath}`)).status).toBe(200);
  });
});

// A request line naming another host is the proxy's (test/proxy): these name the sandbox's own port.
describe('Host over a real socket: the Host header and an absolute-form request line must agree', () => {
  /** Sends one raw HTTP/1.1 request and answers its status line's code and the body. */
  async function raw(port: number, head: string, body = ''): Promise<{ status: number; text: string }> {
    const { connect } = await import('node:net');
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => socket.write(`${head}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`));
      let data = '';
      socket.on('data', (chunk) => (data += chunk));
      socket.on('end', () => resolve({ status: Number(/^HTTP\/1\.1 (\d+)/.exec(data)?.[1]), text: data.slice(data.indexOf('\r\n\r\n') + 4) }));
      socket.on('error', reject);
    });
  }

  test.each([
    ['a foreign Host beside a loopback request line', 421, (port: number) => `POST http://127.0.0.1:${port}/_sandbox/accounts HTTP/1.1\r\nHost: evil.example\r\nContent-Type: application/json`],
    ['another port in the Host', 421, (port: number) => `POST http://127.0.0.1:${port}/_sandbox/accounts HTTP/1.1\r\nHost: 127.0.0.1:${port + 1}\r\nContent-Type: application/json`],
    ['the same authority in both', 201, (port: number) => `POST http://127.0.0.1:${port}/_sandbox/accounts HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json`],
  ])('POST in absolute form with %s answers %i', async (_case, status, head) => {
    h = await startHarness();
    const port = Number(new URL(await h.sb.listen({ port: 0 })).port);
    const before = (await h.control('GET', '/accounts')).body.items.length;
    const res = await raw(port, head(port), '{"name":"drive-by"}');
    expect(res.status, res.text).toBe(status);
    if (status === 421) expect(JSON.parse(res.text).details.code).toBe('HOST_NOT_ALLOWED');
    expect((await h.control('GET', '/accounts')).body.items.length).toBe(before + (status === 201 ? 1 : 0));
  });
});

test('--allowed-host and --allowed-origin repeat, and their variables are comma-separated lists', () => {
  const config = readCliConfig(['--allowed-host', 'sandbox', '--allowed-host', 'pix.lan', '--allowed-origin', 'http://localhost:5173'], {
    SANDBOX_ALLOWED_HOSTS: 'api, web',
    SANDBOX_ALLOWED_ORIGINS: 'http://web:3000',
  });
  expect('options' in config && config.options.allowedHosts).toEqual(['sandbox', 'pix.lan', 'api', 'web']);
  expect('options' in config && config.options.allowedOrigins).toEqual(['http://localhost:5173', 'http://web:3000']);
});

test.each(['/', '/pay', '/docs'])('the page %s carries a CSP of its own assets only, no framing, nosniff and no referrer', async (path) => {
  h = await startHarness();
  const res = await h.api('GET', path);
  expect(res.status).toBe(200);
  const csp = res.headers.get('content-security-policy') ?? '';
  for (const directive of ["default-src 'self'", "script-src 'self'", "style-src 'self'", "frame-ancestors 'none'"]) expect(csp).toContain(directive);
  expect(csp).not.toContain('unsafe-inline');
  expect(res.headers.get('x-frame-options')).toBe('DENY');
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('referrer-policy')).toBe('no-referrer');
  expect(res.text, 'no inline script or style in the page').not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>|<style|\sstyle="/i);
});
