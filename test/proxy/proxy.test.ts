// The proxy on the sandbox's own listener (sandbox.md 13), on a real port of 127.0.0.1: clients that honour a proxy
// reach the sandbox at the service's production URLs, other names are tunnelled for this machine only, and bad input
// gets a clear answer while the sandbox keeps serving. No test resolves or reaches an outside address: with a proxy,
// a client sends the name to the proxy and looks nothing up, and the only tunnel opened elsewhere is to a server of
// the test's own on 127.0.0.1.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage } from 'node:http';
import { connect as netConnect, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { connect as tlsConnect } from 'node:tls';
import { ProxyAgent, fetch as undiciFetch } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/app';
import { createProxy } from '../../src/proxy';
import { facePath, parseServiceHosts } from '../../src/proxy/hosts';
import { DEFAULT } from '../helpers/harness';
import { startCli } from '../foundation/process';

const home = mkdtempSync(join(tmpdir(), 'pix-sandbox-proxy-'));
let sb: Sandbox;
let url: string;
let ca: string;
const logs: string[] = [];

beforeAll(async () => {
  sb = await createSandbox({ home, log: (line) => logs.push(line), serviceHosts: { ...parseServiceHostsOrThrow(['pix.mybank.example=api-pix']) } });
  url = await sb.listen({ port: 0 });
  // The proxy makes the CA on first use; this test reads it to trust it.
  const { loadOrCreateCa } = await import('../../src/tls');
  ca = (await loadOrCreateCa(home)).cert;
});
afterAll(async () => {
  await sb.close();
  rmSync(home, { recursive: true, force: true });
});

function parseServiceHostsOrThrow(items: string[]) {
  const parsed = parseServiceHosts(items);
  if ('error' in parsed) throw new Error(parsed.error);
  return parsed.hosts;
}

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    execFile(cmd, args, { env, timeout: 20_000 }, (err, stdout, stderr) => resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, out: stdout, err: stderr }));
  });
}

/**
 * Raw bytes to the listener and everything it answers until it closes (or `until` matches). `halfClose`: the client
 * ends its side once the bytes are sent, as some clients do after a request.
 */
function raw(bytes: string, until?: RegExp, { halfClose = false, to = url } = {}): Promise<string> {
  const { port } = new URL(to);
  return new Promise((resolve, reject) => {
    const socket = netConnect(Number(port), '127.0.0.1', () => (halfClose ? socket.end(bytes) : socket.write(bytes)));
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (d: string) => {
      text += d;
      if (until?.test(text)) socket.destroy(), resolve(text);
    });
    socket.on('close', () => resolve(text));
    socket.on('error', reject);
  });
}

/** Opens a CONNECT tunnel and resolves with the socket once the proxy answered 200. */
function tunnel(target: string): Promise<{ socket: Socket; head: string }> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: Number(port), method: 'CONNECT', path: target, headers: { host: target } });
    req.on('connect', (res: IncomingMessage, socket: Socket) => (res.statusCode === 200 ? resolve({ socket, head: '' }) : reject(new Error(`CONNECT answered ${res.statusCode}`))));
    req.on('error', reject);
    req.end();
  });
}

/** Sends `request` over TLS (SNI `name`, trusting the CA) in a CONNECT tunnel to name:443; the answer until it ends. */
async function overTls(name: string, request: string): Promise<string> {
  const { socket } = await tunnel(`${name}:443`);
  const tls = tlsConnect({ socket, servername: name, ca });
  return new Promise<string>((resolve, reject) => {
    let text = '';
    tls.setEncoding('latin1');
    tls.on('secureConnect', () => tls.write(request));
    tls.on('data', (d: string) => (text += d));
    tls.on('end', () => resolve(text));
    tls.on('error', reject);
  });
}

async function health() {
  const res = await fetch(`${url}/_sandbox/health`);
  return res.status;
}

afterEach(() => {
  logs.length = 0;
});

describe('the service hosts through CONNECT', () => {
  test('curl with HTTPS_PROXY and the CA reaches the v1 face at https://api.pague.dev/v1 with the default API key', async () => {
    const caFile = join(home, 'ca.pem');
    const res = await run('curl', ['-sS', '--cacert', caFile, '-H', `X-API-Key: ${DEFAULT.apiKey}`, '-w', '\n%{http_code}', 'https://api.pague.dev/v1/account'], {
      PATH: process.env.PATH,
      HTTPS_PROXY: url,
    });
    expect(res.code, res.err).toBe(0);
    const [body, status] = res.out.split('\n');
    expect(status, res.out).toBe('200');
    expect(JSON.parse(body!).account.id, body).toBe(DEFAULT.accountId);
  });

  test("undici's ProxyAgent reaches the v2 face at https://api-gateway.pague.dev/v2 with a bearer token", async () => {
    const dispatcher = new ProxyAgent({ uri: url, requestTls: { ca } });
    try {
      const auth = await undiciFetch('https://api-gateway.pague.dev/v2/auth', {
        dispatcher,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_id: DEFAULT.full.clientId, client_secret: DEFAULT.full.clientSecret }),
      });
      const authBody = (await auth.json()) as { access_token: string };
      expect(auth.status, JSON.stringify(authBody)).toBe(200);
      const charge = await undiciFetch('https://api-gateway.pague.dev/v2/pix', {
        dispatcher,
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${authBody.access_token}` },
        body: JSON.stringify({ amount: 12.5, description: 'through the proxy', customer: { name: 'Ana', document: '52998224725' } }),
      });
      const body = (await charge.json()) as { id: string; status: string };
      expect(charge.status, JSON.stringify(body)).toBe(201);
      // The same state as the sandbox's own port: the charge is there.
      const own = await fetch(`${url}/v2/transactions/${body.id}`, { headers: { authorization: `Bearer ${authBody.access_token}` } });
      expect(own.status, await own.clone().text()).toBe(200);
    } finally {
      await dispatcher.close();
    }
  });

  test('a --service-host name is served on its face: pix.mybank.example/oauth/token is the standard face', async () => {
    const answer = await overTls('pix.mybank.example', 'POST /oauth/token HTTP/1.1\r\nHost: pix.mybank.example\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}');
    // The standard face's token route's own answer (OAuth's error and its Basic challenge, not a 404 of another face).
    expect(answer).toMatch(/^HTTP\/1\.1 401/);
    expect(answer.toLowerCase()).toContain('www-authenticate: basic realm="api-pix"');
    expect(answer).toContain('"error":"invalid_client"');
  });

  test('a service name reaches its own face only: api.pague.dev/_sandbox/health is the v1 face\'s 404', async () => {
    const res = await run('curl', ['-sS', '--cacert', join(home, 'ca.pem'), '-w', '\n%{http_code}', 'https://api.pague.dev/_sandbox/health'], { PATH: process.env.PATH, HTTPS_PROXY: url });
    const [body, status] = res.out.split('\n');
    expect(status, res.out).toBe('404');
    expect(JSON.parse(body!).message).toContain('/v1/_sandbox/health');
  });

  test('a plain http:// request in absolute form to a service host is served the same way', async () => {
    const res = await run('curl', ['-sS', '-H', `X-API-Key: ${DEFAULT.apiKey}`, '-w', '\n%{http_code}', 'http://api.pague.dev/v1/account'], { PATH: process.env.PATH, HTTP_PROXY: url, http_proxy: url });
    const [body, status] = res.out.split('\n');
    expect(status, res.out).toBe('200');
    expect(JSON.parse(body!).account.id, body).toBe(DEFAULT.accountId);
  });

  // The CLI on a real port: the proxy and the route group load at this first request, so the answer comes after the
  // client's end (in process they are loaded already and the answer beats it).
  test.each([['plain HTTP', []], ['--https (plain HTTP on the same port)', ['--https']]])(
    'a client that half-closes its socket after an absolute-form request still gets the answer, on %s',
    async (_, flags) => {
      const ownHome = mkdtempSync(join(tmpdir(), 'pix-sandbox-proxy-half-'));
      const cli = await startCli(['--port', '0', ...flags], { PIX_SANDBOX_HOME: ownHome });
      try {
        const answer = await raw(`GET http://api.pague.dev/v1/account HTTP/1.1\r\nHost: api.pague.dev\r\nX-API-Key: ${DEFAULT.apiKey}\r\n\r\n`, undefined, { halfClose: true, to: cli.url });
        expect(answer).toMatch(/^HTTP\/1\.1 200/);
        expect(answer).toContain(DEFAULT.accountId);
      } finally {
        await cli.stop();
        rmSync(ownHome, { recursive: true, force: true });
      }
    },
  );

  test("the service's names are no Host of the sandbox's own port: only the proxy makes them so", async () => {
    const answer = await raw(`GET /v1/account HTTP/1.1\r\nHost: api.pague.dev\r\nX-API-Key: ${DEFAULT.apiKey}\r\nConnection: close\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 421/);
    expect(answer).toContain('HOST_NOT_ALLOWED');
  });

  // What keeps a new connection through the proxy cheap (a client that opens one per request): each name's TLS end is
  // made once, so a later tunnel resumes the session of an earlier one, and a full handshake shows the same leaf.
  test.each(['api.pague.dev', 'api-gateway.pague.dev', 'pix.mybank.example'])("a second tunnel to %s resumes the first one's TLS session; a third, not resuming, gets the same leaf", async (name) => {
    /** A tunnel to name:443, TLS in it (offering `session`), one request answered: what the client saw. */
    const once = async (session?: Buffer) => {
      const { socket } = await tunnel(`${name}:443`);
      const tls = tlsConnect({ socket, servername: name, ca, session });
      let next = session;
      let leaf = '';
      tls.on('session', (s: Buffer) => (next = s));
      const answer = await new Promise<string>((resolve, reject) => {
        let text = '';
        tls.setEncoding('latin1');
        tls.on('secureConnect', () => {
          leaf = tls.getPeerCertificate().fingerprint256;
          tls.write(`GET / HTTP/1.1\r\nHost: ${name}\r\nConnection: close\r\n\r\n`);
        });
        tls.on('data', (d: string) => (text += d));
        tls.on('end', () => resolve(text));
        tls.on('error', reject);
      });
      return { answer, reused: tls.isSessionReused(), leaf, session: next };
    };
    const first = await once();
    expect(first.answer).toMatch(/^HTTP\/1\.1 \d{3}/);
    expect(first.reused).toBe(false);
    expect(first.session, 'the server sent no session ticket').toBeInstanceOf(Buffer);
    const second = await once(first.session);
    expect(second.answer).toMatch(/^HTTP\/1\.1 \d{3}/);
    expect(second.reused).toBe(true);
    const third = await once();
    expect(third.reused).toBe(false);
    expect(third.leaf).toBe(first.leaf);
  });

  test('inside a tunnel to api.pague.dev, a Host of another name is refused by the doors', async () => {
    const answer = await overTls('api.pague.dev', `GET /v1/account HTTP/1.1\r\nHost: evil.example\r\nX-API-Key: ${DEFAULT.apiKey}\r\nConnection: close\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 421/);
  });
});

describe('other names', () => {
  test('CONNECT to another host from this machine is a plain tunnel to it', async () => {
    const own = createServer((req, res) => res.end(`own server saw ${req.method} ${req.url}`));
    await new Promise<void>((r) => own.listen(0, '127.0.0.1', r));
    try {
      const port = (own.address() as AddressInfo).port;
      const { socket } = await tunnel(`127.0.0.1:${port}`);
      const answer = await new Promise<string>((resolve) => {
        let text = '';
        socket.setEncoding('latin1');
        socket.on('data', (d: string) => (text += d));
        socket.on('end', () => resolve(text));
        socket.write('GET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
      });
      expect(answer).toMatch(/^HTTP\/1\.1 200/);
      expect(answer).toContain('own server saw GET /hello');
    } finally {
      own.close();
    }
  });

  test('a tunnel to a port nobody listens on answers 502 naming the target', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const answer = await raw(`CONNECT 127.0.0.1:${port} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 502/);
    expect(answer).toContain(`127.0.0.1:${port}`);
    expect(await health()).toBe(200);
  });

  test.each([
    ['CONNECT 10.0.0.5:443', 'CONNECT', '10.0.0.5:443'],
    ['CONNECT example.com:443', 'CONNECT', 'example.com:443'],
    ['GET http://example.com/', 'GET', 'http://example.com/'],
  ])('%s from a client not on this machine is refused 403 naming the host: never an open relay', async (_name, method, target) => {
    const proxy = createProxy({ serviceHosts: parseServiceHostsOrThrow([]), home, fetch: () => new Response('app'), hostAllowed: () => true, log: (l) => logs.push(l), idleMs: 60_000 });
    const socket = Object.assign(new PassThrough(), { remoteAddress: '10.1.2.3', localPort: 4747 });
    let written = '';
    socket.on('data', (d: Buffer) => (written += d.toString('latin1')));
    const host = target.replace(/^http:\/\//, '').replace(/[:/].*$/, '');
    if (method === 'CONNECT') {
      proxy.connect({ url: target, headers: {}, socket } as unknown as IncomingMessage, socket, Buffer.alloc(0));
      await new Promise((r) => setImmediate(r));
      expect(written).toMatch(/^HTTP\/1\.1 403/);
      expect(written).toContain(`'${host}'`);
      expect(written).toContain('PROXY_NOT_RELAY');
    } else {
      const heads: unknown[] = [];
      const res = { writeHead: (...a: unknown[]) => (heads.push(a), res), end: (body: string) => (written = body) };
      proxy.request({ url: target, method, headers: {}, socket } as unknown as IncomingMessage, res as never);
      expect((heads[0] as unknown[])[0]).toBe(403);
      expect(JSON.parse(written).message).toContain(`'${host}'`);
    }
    proxy.close();
  });
});

describe('bad input gets a clear answer and the sandbox keeps serving', () => {
  test.each(['api.pague.dev', 'api.pague.dev:0', 'api.pague.dev:99999', 'api.pague.dev:https', '[::1', 'a b:443'])('CONNECT %s answers 400 BAD_CONNECT_TARGET', async (target) => {
    const answer = await raw(`CONNECT ${target} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 400/);
    if (!target.includes(' ')) {
      expect(answer).toContain('BAD_CONNECT_TARGET');
      expect(answer).toContain('host:port');
    }
    expect(await health()).toBe(200);
  });

  test('a TLS hello without SNI in a tunnel to a service host is closed with an alert and a log line naming the cause', async () => {
    const { socket } = await tunnel('api.pague.dev:443');
    // An IP as the host: Node sends no SNI.
    const tls = tlsConnect({ socket, host: '127.0.0.1', ca, checkServerIdentity: () => undefined });
    const err = await new Promise<Error>((resolve) => {
      tls.on('error', resolve);
      tls.on('secureConnect', () => resolve(new Error('handshake succeeded')));
    });
    expect(err.message).toMatch(/unrecognized name/i);
    expect(logs.join('\n')).toContain('names no server (SNI)');
    expect(await health()).toBe(200);
  });

  test('a TLS hello naming another server than the tunnel is closed with a log line naming both', async () => {
    const { socket } = await tunnel('api.pague.dev:443');
    const tls = tlsConnect({ socket, servername: 'api-gateway.pague.dev', ca });
    const err = await new Promise<Error>((resolve) => {
      tls.on('error', resolve);
      tls.on('secureConnect', () => resolve(new Error('handshake succeeded')));
    });
    expect(err.message).toMatch(/unrecognized name/i);
    expect(logs.join('\n')).toContain("asks for 'api-gateway.pague.dev' inside a tunnel opened to api.pague.dev");
  });
});

describe('facePath', () => {
  test.each([
    ['v1', '/v1/pix', '/v1/pix'],
    ['v1', '/v1', '/v1'],
    ['v1', '/v1?x=1', '/v1?x=1'],
    ['v2', '/v2/auth', '/v2/auth'],
    ['v2', '/_sandbox/reset', '/v2/_sandbox/reset'],
    ['v1', '/v10/pix', '/v1/v10/pix'],
    ['api-pix', '/v2/cob', '/api-pix/v2/cob'],
    ['api-pix', '/oauth/token', '/api-pix/oauth/token'],
    ['api-pix', '/api-pix/v2/cob', '/api-pix/v2/cob'],
    // Normalised first (test/proxy/paths.test.ts): dots cannot leave the base.
    ['v1', '/v1/../_sandbox/reset', '/v1/_sandbox/reset'],
    ['v1', '/v1/..?x=/../y', '/v1/?x=/../y'],
    ['v2', '/v2/%2e%2e/v1/pix', '/v2/v1/pix'],
    ['api-pix', '/v2/../../_sandbox/reset', '/api-pix/_sandbox/reset'],
    ['api-pix', '/api-pix/../_sandbox', '/api-pix/_sandbox'],
    ['api-pix', 'v2/cob', '/api-pix/v2/cob'],
  ] as const)('%s face: %s is served at %s', (face, path, served) => {
    expect(facePath(face, path)).toBe(served);
  });
});

test('the CA file the curl test trusts is the one the proxy signs with', () => {
  expect(readFileSync(join(home, 'ca.pem'), 'utf8')).toBe(ca);
});

test('plain HTTP inside a tunnel to a service host (CONNECT api.pague.dev:80) is served on its face', async () => {
  const { socket } = await tunnel('api.pague.dev:80');
  const answer = await new Promise<string>((resolve) => {
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (d: string) => (text += d));
    socket.on('end', () => resolve(text));
    socket.write(`GET /v1/account HTTP/1.1\r\nHost: api.pague.dev\r\nX-API-Key: ${DEFAULT.apiKey}\r\nConnection: close\r\n\r\n`);
  });
  expect(answer).toMatch(/^HTTP\/1\.1 200/);
  expect(answer).toContain(DEFAULT.accountId);
});
