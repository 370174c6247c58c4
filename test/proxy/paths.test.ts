// A path is normalised before its face is chosen (sandbox.md 11): dots, encoded dots, doubled slashes, backslashes and
// encoded separators never take a service name out of its face's base, on every way in (a CONNECT tunnel with TLS,
// plain HTTP inside a tunnel, an absolute-form http:// request, the service port). Each form is a 404 of that face in
// its own envelope, and changes nothing: a charge made before is still there (a reset would have removed it). On the
// sandbox's own port a dotted path is served at the path it names. Every request is written on a raw socket, so no
// client resolves a dot on its own.
import { mkdtempSync, rmSync } from 'node:fs';
import { connect as netConnect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as tlsConnect } from 'node:tls';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/app';
import { normalPath } from '../../src/lib/paths';
import { DEFAULT_SERVICE_HOSTS } from '../../src/proxy/hosts';
import { DEFAULT } from '../helpers/harness';

const home = mkdtempSync(join(tmpdir(), 'pix-sandbox-paths-'));
let sb: Sandbox;
let port = 0;
let servicePort = 0;
let ca = '';
/** A charge made before the table: a reset anywhere in it would remove it. */
let chargeId = '';

beforeAll(async () => {
  sb = await createSandbox({ home, servicePort: 0, log: () => {}, serviceHosts: { ...DEFAULT_SERVICE_HOSTS, 'pix.mybank.example': 'api-pix' } });
  port = Number(new URL(await sb.listen({ port: 0 })).port);
  servicePort = Number(new URL(sb.serviceUrl!).port);
  ca = (await (await import('../../src/tls')).loadOrCreateCa(home)).cert;
  const res = await fetch(`http://127.0.0.1:${port}/v1/pix`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': DEFAULT.apiKey },
    body: JSON.stringify({ amount: 10, description: 'made before the table', customer: { name: 'Ana', document: '52998224725' } }),
  });
  expect(res.status).toBe(201);
  chargeId = ((await res.json()) as { id: string }).id;
});
afterAll(async () => {
  await sb.close();
  rmSync(home, { recursive: true, force: true });
});

interface Answer {
  status: number;
  head: string;
  body: string;
}

/** Writes `bytes` once `socket` is `ready` (now, without one) and reads until it closes (every request says Connection: close). */
function exchange(socket: Socket, bytes: string, ready?: 'connect' | 'secureConnect'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let text = '';
    socket.setEncoding('latin1');
    if (ready) socket.once(ready, () => socket.write(bytes));
    else socket.write(bytes);
    socket.on('data', (d: string) => (text += d));
    socket.on('close', () => {
      const at = text.indexOf('\r\n\r\n');
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), head: text.slice(0, at).toLowerCase(), body: text.slice(at + 4) });
    });
    socket.on('error', reject);
  });
}

/** A CONNECT tunnel to name:port on the sandbox's listener, once it answered 200. */
function tunnel(name: string, to: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = netConnect(port, '127.0.0.1', () => socket.write(`CONNECT ${name}:${to} HTTP/1.1\r\nHost: ${name}:${to}\r\n\r\n`));
    let head = '';
    const onData = (d: Buffer) => {
      head += d.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      socket.off('data', onData);
      if (head.startsWith('HTTP/1.1 200')) resolve(socket);
      else reject(new Error(`CONNECT answered ${head}`));
    };
    socket.on('data', onData);
    socket.on('error', reject);
  });
}

type Entry = 'CONNECT and TLS' | 'plain HTTP in a tunnel' | 'absolute-form http://' | 'the service port';
const ENTRIES: Entry[] = ['CONNECT and TLS', 'plain HTTP in a tunnel', 'absolute-form http://', 'the service port'];

/** `method target` sent to the service name `name` through `entry`, with the request line as written. */
async function send(entry: Entry, name: string, method: string, target: string, headers: string[] = [], body = ''): Promise<Answer> {
  const rest = `Host: ${name}\r\n${headers.map((h) => `${h}\r\n`).join('')}Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
  const request = `${method} ${target} HTTP/1.1\r\n${rest}`;
  switch (entry) {
    case 'CONNECT and TLS':
      return exchange(tlsConnect({ socket: await tunnel(name, 443), servername: name, ca }), request, 'secureConnect');
    case 'plain HTTP in a tunnel':
      return exchange(await tunnel(name, 80), request);
    case 'absolute-form http://':
      return exchange(netConnect(port, '127.0.0.1'), `${method} http://${name}${target} HTTP/1.1\r\n${rest}`, 'connect');
    case 'the service port':
      return exchange(tlsConnect({ host: '127.0.0.1', port: servicePort, servername: name, ca }), request, 'secureConnect');
  }
}

/**
 * The service names of each face, the base its clients write (an API Pix client writes /v2/cob on its name) and
 * another face's.
 */
const NAMES = [
  { name: 'api.pague.dev', face: 'v1', base: '/v1', other: 'v2' },
  { name: 'api-gateway.pague.dev', face: 'v2', base: '/v2', other: 'v1' },
  { name: 'pix.mybank.example', face: 'api-pix', base: '/v2', other: 'v1' },
] as const;

// `B` is the name's own base, `{O}` another face's. Each form names the control API's reset, the console or another face.
const FORMS: [method: string, target: string][] = [
  ['POST', 'B/../_sandbox/reset'],
  ['POST', 'B/%2e%2e/_sandbox/reset'],
  ['POST', 'B/.%2E/_sandbox/reset'],
  ['POST', 'B/%2E./_sandbox/reset'],
  ['POST', '//_sandbox/reset'],
  ['POST', 'B//../_sandbox/reset'],
  ['POST', 'B/..\\_sandbox/reset'],
  ['POST', 'B/..%5c_sandbox/reset'],
  ['POST', 'B/%2e%2e%2f_sandbox/reset'],
  ['POST', 'B/..%2F..%2F_sandbox%2Freset'],
  ['POST', 'B/%2e%2E%5C%2E%2e%5c_sandbox/reset'],
  ['POST', 'B/./../../../_sandbox/reset'],
  ['POST', '/%2e%2e/_sandbox/reset'],
  ['POST', 'B/../../?x=/_sandbox/reset'],
  ['GET', 'B/../'],
  ['GET', 'B/../_sandbox/console'],
  ['GET', 'B/../{O}/account'],
  ['GET', 'B/%2e%2e%2f{O}/account'],
  ['GET', '/v2/../../'],
];

const CASES = ENTRIES.flatMap((entry) => NAMES.flatMap(({ name, face, base, other }) => FORMS.map(([method, form]) => [entry, name, method, form.replace(/^B/, base).replace('{O}', other), face] as const)));

describe('a path with dots never leaves the face of the service name it was sent to', () => {
  test.each(CASES)('%s to %s: %s %s is a 404 of the %s face, and the sandbox is not reset', async (entry, name, method, target, face) => {
    const answer = await send(entry, name, method, target);
    expect(answer.status, `${answer.head}\n${answer.body}`).toBe(404);
    if (face === 'api-pix') {
      expect(answer.head).toContain('content-type: application/problem+json');
      expect(JSON.parse(answer.body)).toMatchObject({ status: 404, type: expect.stringContaining('https://pix.bcb.gov.br/api/v2/error/') });
    } else {
      expect(answer.head).toContain('content-type: application/json');
      expect(JSON.parse(answer.body)).toMatchObject({ statusCode: 404, details: { code: expect.any(String) } });
      // The face's own 404: it names the path as served, under the face's base (the base itself with one trailing
      // slash is the route without it).
      expect(JSON.parse(answer.body).message).toMatch(new RegExp(`/${face}(/|\\b)`));
    }
    // Nothing changed: the charge made before is still there.
    const still = await fetch(`http://127.0.0.1:${port}/v1/transactions/${chargeId}`, { headers: { 'x-api-key': DEFAULT.apiKey } });
    expect(still.status).toBe(200);
  });
});

describe('paths that stay inside the face work', () => {
  // A dot that resolves inside the face is the path it names (/v1/./pix is /v1/pix), as on any server.
  test.each(ENTRIES.flatMap((entry) => ['/v1/pix', '/v1/./pix', '/v1//pix', '/v1/x/../pix', '/v1/%2E/pix', '/pix'].map((target) => [entry, target] as const)))(
    '%s to api.pague.dev: POST %s creates a charge on the v1 face',
    async (entry, target) => {
      const body = JSON.stringify({ amount: 1.5, description: 'inside the face', customer: { name: 'Ana', document: '52998224725' } });
      const answer = await send(entry, 'api.pague.dev', 'POST', target, [`X-API-Key: ${DEFAULT.apiKey}`, 'Content-Type: application/json'], body);
      expect(answer.status, answer.body).toBe(201);
      expect(JSON.parse(answer.body).status).toBe('pending');
    },
  );

  test.each(ENTRIES)('%s to an API Pix name: its token route and payload locations are its own (/oauth/token, /qr/v2/...)', async (entry) => {
    const token = await send(entry, 'pix.mybank.example', 'POST', '/v2/../oauth/token', ['Content-Type: application/x-www-form-urlencoded'], 'grant_type=client_credentials');
    expect(token.status, token.body).toBe(401); // the token route's own answer: no client credentials
    expect(token.head).toContain('www-authenticate: basic realm="api-pix"');
    const location = await send(entry, 'pix.mybank.example', 'GET', '/qr/v2/./nope');
    expect(location.status, location.body).toBe(404);
    expect(location.head).toContain('application/problem+json');
  });
});

describe("the sandbox's own port", () => {
  /** Raw bytes to the own port; the answer once it closes. */
  const own = (method: string, target: string, headers: string[] = [], body = '') =>
    exchange(netConnect(port, '127.0.0.1'), `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${headers.map((h) => `${h}\r\n`).join('')}Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`, 'connect');

  // The control API is on this port anyway: a dotted path crosses nothing, and is served at the path it names.
  test.each(['/v2/../_sandbox/health', '/v1/%2e%2e/_sandbox/health', '/v1/..\\_sandbox/health', '/v1/..%5c_sandbox/health', '//_sandbox//health', '/v1/%2e%2e%2f_sandbox/health'])(
    'GET %s is GET /_sandbox/health',
    async (target) => {
      const answer = await own('GET', target);
      expect(answer.status, answer.body).toBe(200);
      expect(JSON.parse(answer.body).status).toBe('ok');
    },
  );

  test('the route, the request log and the faults see the one normal path', async () => {
    const faults = await own('PUT', '/_sandbox/faults', ['Content-Type: application/json'], JSON.stringify({ rules: [{ method: 'GET', path: '/v1/account', status: 503, times: 1 }] }));
    expect(faults.status, faults.body).toBe(200);
    const faulted = await own('GET', '/v1/x/..%2F.%2Faccount', [`X-API-Key: ${DEFAULT.apiKey}`]);
    expect(faulted.status, faulted.body).toBe(503);
    const served = await own('GET', '/v1//./account', [`X-API-Key: ${DEFAULT.apiKey}`]);
    expect(served.status, served.body).toBe(200);
    const log = await own('GET', `/_sandbox/accounts/${DEFAULT.accountId}/requests?limit=2`);
    expect(JSON.parse(log.body).items.map((i: { path: string }) => i.path)).toEqual(['/v1/account', '/v1/account']);
  });
});

describe('normalPath', () => {
  test.each([
    ['/v1/pix', '/v1/pix'],
    ['/v1/./pix', '/v1/pix'],
    ['/v1/pix/.', '/v1/pix/'],
    ['/v1/pix/', '/v1/pix/'],
    ['/v1/..', '/'],
    ['/../..', '/'],
    ['//a///b', '/a/b'],
    ['/a/%2E%2e/b', '/b'],
    ['/a/.%2e/b', '/b'],
    ['/a\\..\\b', '/b'],
    ['/a/..%5Cb', '/b'],
    ['/a/..%2fb', '/b'],
    ['/a/%252e%252e/b', '/a/%252e%252e/b'],
    ['/.well-known/jwks.json', '/.well-known/jwks.json'],
    ['/webhook/fulano%40example.com', '/webhook/fulano%40example.com'],
  ])('%s is %s', (path, normal) => {
    expect(normalPath(path)).toBe(normal);
    expect(normalPath(normal)).toBe(normal); // a fixed point
  });
});
