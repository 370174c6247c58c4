// Every connection has an end (sandbox.md 11), on real ports of 127.0.0.1 with the idle limit set small: a tunnel or
// service-port connection whose client half-closes is closed, one left quiet (no hello, an unfinished hello, TLS done
// and no request) is closed within the idle limit, and a tunnel in use is never cut. "Closed" is what the client
// sees: its socket closes only once the sandbox has ended its side.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer as createNetServer, connect as netConnect, type AddressInfo, type Server as NetServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as tlsConnect, type TLSSocket } from 'node:tls';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/app';
import { readCliConfig } from '../../src/config';
import { DEFAULT } from '../helpers/harness';

const IDLE_MS = 300;
/** Past the limit and node:http's check (every limit/4), with room for a loaded machine. */
const CLOSED_WITHIN_MS = 5_000;

const home = mkdtempSync(join(tmpdir(), 'pix-sandbox-ends-'));
let plain: Sandbox;
let https: Sandbox;
const ports = { main: 0, https: 0, service: 0 };

beforeAll(async () => {
  plain = await createSandbox({ home, idleTimeoutMs: IDLE_MS, servicePort: 0, log: () => {} });
  ports.main = Number(new URL(await plain.listen({ port: 0 })).port);
  ports.service = Number(new URL(plain.serviceUrl!).port);
  https = await createSandbox({ home, idleTimeoutMs: IDLE_MS, https: true, log: () => {} });
  ports.https = Number(new URL(await https.listen({ port: 0 })).port);
});
afterAll(async () => {
  await plain.close();
  await https.close();
  rmSync(home, { recursive: true, force: true });
});

type Door = keyof typeof ports;

/** A socket to the door, once open, and for the listeners once CONNECT api.pague.dev:443 answered 200. */
function open(door: Door): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = netConnect(ports[door], '127.0.0.1');
    socket.on('error', reject);
    if (door === 'service') return void socket.once('connect', () => resolve(socket));
    socket.once('connect', () => socket.write('CONNECT api.pague.dev:443 HTTP/1.1\r\nHost: api.pague.dev:443\r\n\r\n'));
    let head = '';
    const onData = (d: Buffer) => {
      head += d.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      socket.off('data', onData);
      if (!head.startsWith('HTTP/1.1 200')) return reject(new Error(`CONNECT answered ${head}`));
      resolve(socket);
    };
    socket.on('data', onData);
  });
}

/** TLS for api.pague.dev over `socket`, once the session is up. */
function tlsOver(socket: Socket): Promise<TLSSocket> {
  return new Promise((resolve, reject) => {
    const tls = tlsConnect({ socket, servername: 'api.pague.dev', rejectUnauthorized: false }, () => resolve(tls));
    tls.once('error', reject);
  });
}

/** Resolves with the milliseconds until the sandbox closed `socket`; rejects if it is still open after `ms`. */
function closedWithin(socket: Socket, ms = CLOSED_WITHIN_MS): Promise<number> {
  const t0 = performance.now();
  socket.on('error', () => {});
  socket.resume();
  return new Promise((resolve, reject) => {
    if (socket.destroyed) return resolve(0);
    const timer = setTimeout(() => reject(new Error(`the sandbox left the connection open for ${ms} ms`)), ms);
    socket.once('close', () => (clearTimeout(timer), resolve(performance.now() - t0)));
  });
}

/** Ways of abandoning a tunnel (or a service-port connection) once it is open. */
const ABANDON: Record<string, (socket: Socket) => Promise<Socket>> = {
  'FIN before any TLS byte': async (s) => s.end(),
  '3 bytes of a TLS hello, then FIN': async (s) => s.end(Buffer.from([0x16, 0x03, 0x01])),
  'silence, no TLS hello': async (s) => s,
  '3 bytes of a TLS hello, then silence': async (s) => (s.write(Buffer.from([0x16, 0x03, 0x01])), s),
  'TLS done, then no request': async (s) => tlsOver(s),
  'TLS done, then FIN': async (s) => (await tlsOver(s)).end(),
};
const cases = (['main', 'https', 'service'] as const).flatMap((door) => Object.keys(ABANDON).map((kind) => [door, kind] as const));

describe('an abandoned tunnel is closed by the sandbox', () => {
  test.each(cases)('%s door: %s', async (door, kind) => {
    const socket = await ABANDON[kind]!(await open(door));
    await closedWithin(socket);
    // The door still serves.
    const res = await fetch(`http://127.0.0.1:${ports.main}/_sandbox/health`);
    expect(res.status).toBe(200);
  });

  test('a half-closing client is closed at once, not at the idle limit', async () => {
    // Measured against the limit set large: the FIN alone must end it.
    const sb = await createSandbox({ home, idleTimeoutMs: 60_000, servicePort: 0, log: () => {} });
    try {
      const saved = { ...ports };
      ports.main = Number(new URL(await sb.listen({ port: 0 })).port);
      ports.service = Number(new URL(sb.serviceUrl!).port);
      try {
        for (const door of ['main', 'service'] as const)
          for (const kind of ['FIN before any TLS byte', '3 bytes of a TLS hello, then FIN', 'TLS done, then FIN']) await closedWithin(await ABANDON[kind]!(await open(door)), 3_000);
      } finally {
        Object.assign(ports, saved);
      }
    } finally {
      await sb.close();
    }
  });
});

/** One request over `tls`, its answer once complete (content-length). */
function ask(tls: TLSSocket, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const onData = (d: Buffer) => {
      text += d.toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      const length = /content-length: (\d+)/i.exec(text);
      if (end >= 0 && length && text.length >= end + 4 + Number(length[1])) done(), resolve(text);
    };
    const onClose = () => (done(), reject(new Error(`the tunnel closed mid-answer: ${text}`)));
    const done = () => (tls.off('data', onData), tls.off('close', onClose));
    tls.on('data', onData);
    tls.once('close', onClose);
    tls.write(request);
  });
}

const GET_ACCOUNT = `GET /v1/account HTTP/1.1\r\nHost: api.pague.dev\r\nX-API-Key: ${DEFAULT.apiKey}\r\n\r\n`;

describe('a tunnel in use is never cut', () => {
  test('an answer slower than the idle limit comes whole through the tunnel, and the tunnel then serves the next request', async () => {
    const latencyMs = IDLE_MS * 5;
    const put = await fetch(`http://127.0.0.1:${ports.main}/_sandbox/faults`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ rules: [{ method: 'GET', path: '/v1/account', latencyMs, times: 1 }] }) });
    expect(put.status, await put.text()).toBe(200);
    try {
      const tls = await tlsOver(await open('main'));
      const t0 = performance.now();
      const first = await ask(tls, GET_ACCOUNT);
      expect(performance.now() - t0).toBeGreaterThanOrEqual(latencyMs - 50);
      expect(first, first).toMatch(/^HTTP\/1\.1 200/);
      expect(first).toContain(DEFAULT.accountId);
      // Kept alive: the next request, within the keep-alive limit, is served on the same tunnel.
      expect(await ask(tls, GET_ACCOUNT)).toMatch(/^HTTP\/1\.1 200/);
      // Then, quiet past the keep-alive limit, the sandbox ends it.
      await closedWithin(tls);
    } finally {
      await fetch(`http://127.0.0.1:${ports.main}/_sandbox/faults`, { method: 'DELETE' });
    }
  });

  test('a request whose body comes in parts over more than the idle limit (within 5x) is served', async () => {
    const tls = await tlsOver(await open('service'));
    const body = JSON.stringify({ name: 'slow but steady' });
    const parts = [body.slice(0, 5), body.slice(5, 10), body.slice(10)];
    const answer = new Promise<string>((resolve, reject) => {
      let text = '';
      tls.on('data', (d: Buffer) => {
        text += d.toString('latin1');
        if (/\r\n\r\n/.test(text)) resolve(text);
      });
      tls.once('close', () => reject(new Error(`the tunnel closed mid-request: ${text}`)));
    });
    tls.write(`POST /v1/customers HTTP/1.1\r\nHost: api.pague.dev\r\nX-API-Key: ${DEFAULT.apiKey}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n`);
    for (const part of parts) {
      await new Promise((r) => setTimeout(r, IDLE_MS * 0.8));
      tls.write(part);
    }
    // Any answer of the route (not a closed tunnel, not a 408): the request reached it whole.
    expect(await answer).toMatch(/^HTTP\/1\.1 [2-4](?!08)\d\d/);
    tls.destroy();
  });
});

describe('a tunnel to another host (this machine only) ends when either side has ended', () => {
  let upstream: NetServer;
  let upstreamPort = 0;
  const held: Socket[] = [];
  beforeAll(async () => {
    // A host that never closes on its own: it half-closes when told "bye", and otherwise keeps what it gets.
    upstream = createNetServer({ allowHalfOpen: true }, (s) => {
      held.push(s);
      s.on('data', (d) => d.toString().includes('bye') && s.end('bye\n'));
    });
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    upstreamPort = (upstream.address() as AddressInfo).port;
  });
  afterAll(() => {
    for (const s of held) s.destroy();
    upstream.close();
  });

  const pipe = async ({ allowHalfOpen = false } = {}) => {
    const socket = netConnect({ port: ports.main, host: '127.0.0.1', allowHalfOpen });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => socket.write(`CONNECT 127.0.0.1:${upstreamPort} HTTP/1.1\r\nHost: 127.0.0.1:${upstreamPort}\r\n\r\n`));
      socket.once('data', (d) => (d.toString().startsWith('HTTP/1.1 200') ? resolve() : reject(new Error(d.toString()))));
      socket.on('error', reject);
    });
    return socket;
  };

  test('the client half-closes, the host never does: the tunnel closes once quiet for the idle limit', async () => {
    const socket = await pipe();
    socket.end();
    await closedWithin(socket);
  });

  test('the host half-closes, the client never does: the sandbox closes its side once quiet for the idle limit', async () => {
    // The client keeps its half open, so only the sandbox's descriptors say whether it let go: of the four this
    // tunnel opens in this process (client, sandbox's side, sandbox to host, host), the client's alone stays.
    const baseline = descriptors();
    const socket = await pipe({ allowHalfOpen: true });
    socket.write('bye\n');
    let got = '';
    socket.on('data', (d) => (got += d));
    await new Promise((resolve) => socket.once('end', resolve));
    expect(got).toBe('bye\n');
    expect(await descriptorsDownTo(baseline + 1)).toBeLessThanOrEqual(baseline + 1);
    socket.destroy();
  });
});

const descriptors = () => readdirSync('/proc/self/fd').length;
/** Polls this process's descriptor count until it is `target` or less (5 s at most); the last count. */
async function descriptorsDownTo(target: number) {
  let now = descriptors();
  for (let i = 0; i < 250 && now > target; i++) await new Promise((r) => setTimeout(r, 20)), (now = descriptors());
  return now;
}

test('the descriptor count comes back to where it was after 200 abandoned tunnels', async () => {
  // One of each first: the proxy, the CA and the name's certificate are loaded once, for good.
  for (const kind of Object.keys(ABANDON)) await closedWithin(await ABANDON[kind]!(await open('main')));
  const before = descriptors();
  const sockets = await Promise.all(Array.from({ length: 200 }, (_, i) => open(i % 2 ? 'main' : 'service').then((s) => (i % 4 < 2 ? s.end() : s))));
  await Promise.all(sockets.map((s) => closedWithin(s, 10_000)));
  expect(await descriptorsDownTo(before)).toBeLessThanOrEqual(before);
});

test.each([
  [['--idle-timeout', '30s'], {}, 30_000],
  [[], { SANDBOX_IDLE_TIMEOUT: '2m' }, 120_000],
  [[], {}, undefined],
])('%j %j sets the idle limit to %s ms', (argv, env, expected) => {
  const config = readCliConfig(argv, env);
  if (!('options' in config)) throw new Error(JSON.stringify(config));
  expect(config.options.idleTimeoutMs).toBe(expected);
});

test.each(['30', 'soon', '0s'])('--idle-timeout %s is refused naming the flag and the form', (value) => {
  expect(readCliConfig(['--idle-timeout', value], {})).toEqual({ error: expect.stringContaining('--idle-timeout must be a number with a unit') });
});
