// GET /_sandbox/health is answered on the bare node:http request while the Node adapter still loads (server.ts,
// control/early-health.ts). That answer must be the app's own (same headers, same body), only for what the app would
// answer 200, and every other request that comes meanwhile waits for the adapter and gets its usual answer.
import { once } from 'node:events';
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, test } from 'vitest';
import { createSandbox, VERSION, type Sandbox } from '../../src/app';
import { healthAnswer } from '../../src/control/health';
import { earlyHealth } from '../../src/control/early-health';
import { hostDoor } from '../../src/wire/middleware/doors';
import { CLI, freePort, killLeftovers, ROOT } from '../foundation/process';
import { spawn } from 'node:child_process';

const open: (Sandbox | Server)[] = [];
afterEach(async () => {
  for (const s of open.splice(0)) await ('deps' in s ? s.close() : new Promise((r) => s.close(r)));
  killLeftovers();
});

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  rawNames: string[];
  body: string;
}

/** One request over a socket, with the Host header as given (fetch would not send a foreign one). */
function raw(port: number, method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, rawNames: res.rawHeaders.filter((_, i) => i % 2 === 0), body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The early answerer on a server of its own, saying 'deferred' (418) for what it leaves to the app. */
async function earlyServer(sb: Sandbox, allowedHosts: string[] = []) {
  const early = earlyHealth(() => healthAnswer(sb.deps, { version: VERSION, startedAt: Date.now() }), hostDoor(allowedHosts));
  const server = createServer((req, res) => early(req, res) || res.writeHead(418).end('deferred'));
  open.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return (server.address() as AddressInfo).port;
}

test('the early answer is the one the app gives: status, header names in order, content type and body', async () => {
  const sb = await createSandbox({ log: () => {}, lazyRoutes: true });
  open.push(sb);
  const port = Number(new URL(await sb.listen({ port: 0 })).port);
  const [app, early] = [await raw(port, 'GET', '/_sandbox/health'), await raw(await earlyServer(sb), 'GET', '/_sandbox/health')];
  expect(early.status).toBe(app.status);
  expect(early.rawNames).toEqual(app.rawNames);
  for (const name of ['content-type', 'content-security-policy', 'x-frame-options', 'referrer-policy', 'x-content-type-options']) expect(early.headers[name], name).toBe(app.headers[name]);
  expect(early.headers['x-trace-id']).toMatch(/^[0-9a-f-]{36}$/);
  const [a, e] = [JSON.parse(app.body), JSON.parse(early.body)];
  expect({ ...e, uptimeSeconds: 0, rssBytes: 0, now: 0 }).toEqual({ ...a, uptimeSeconds: 0, rssBytes: 0, now: 0 });
  expect(Number(early.headers['content-length'])).toBe(Buffer.byteLength(early.body));
});

test.each([
  ['another method', 'POST', '/_sandbox/health', {}],
  ['another path', 'GET', '/_sandbox/healthz', {}],
  ['a path below it', 'GET', '/_sandbox/health/x', {}],
  ['a foreign Host (the doors refuse it: 421 from the app)', 'GET', '/_sandbox/health', { host: 'evil.example' }],
  ['a Host that is not plain lower-case host:port', 'GET', '/_sandbox/health', { host: 'LOCALHOST' }],
])('%s is left to the app', async (_, method, path, headers) => {
  const sb = await createSandbox({ log: () => {} });
  open.push(sb);
  expect((await raw(await earlyServer(sb), method, path, headers)).body).toBe('deferred');
});

test('an allowed name and a query string are answered early', async () => {
  const sb = await createSandbox({ log: () => {} });
  open.push(sb);
  const port = await earlyServer(sb, ['pix.internal']);
  for (const [path, host] of [['/_sandbox/health?x=1', `127.0.0.1:${port}`], ['/_sandbox/health', 'pix.internal:4747'], ['/_sandbox/health', 'localhost']] as const) {
    const res = await raw(port, 'GET', path, { host });
    expect(res.status, `${path} ${host}`).toBe(200);
    expect(JSON.parse(res.body).status).toBe('ok');
  }
});

test('the CLI: requests sent the moment it listens get their usual answers, health, a refused Host and the v2 API alike', async () => {
  const port = await freePort();
  const child = spawn(process.execPath, [CLI, '--port', String(port)], { cwd: ROOT, env: { PATH: process.env.PATH ?? '' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  const exited = once(child, 'exit');
  try {
    // Connect as soon as the port accepts (a refused connection is retried at once), then send all three together.
    for (;;) {
      const up = await raw(port, 'GET', '/_sandbox/health').catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'ECONNREFUSED') throw err;
        return null;
      });
      if (up) {
        expect(up.status, up.body).toBe(200);
        break;
      }
    }
    const auth = JSON.stringify({ client_id: 'mp_test_sandbox_full_access', client_secret: 'sandbox-secret-full-access' });
    const [health, foreign, token] = await Promise.all([
      raw(port, 'GET', '/_sandbox/health'),
      raw(port, 'GET', '/_sandbox/health', { host: 'evil.example' }),
      raw(port, 'POST', '/v2/auth', { 'content-type': 'application/json' }, auth),
    ]);
    expect(health.status, health.body).toBe(200);
    expect(JSON.parse(health.body)).toMatchObject({ status: 'ok', accounts: 1, persistent: false });
    expect(foreign.status, foreign.body).toBe(421);
    expect(JSON.parse(foreign.body).details.code).toBe('HOST_NOT_ALLOWED');
    expect(token.status, token.body).toBe(200);
    expect(JSON.parse(token.body).access_token).toMatch(/^ey/);
    // The banner follows once the adapter serves (the process exiting first fails the test).
    const banner = `pix-sandbox listening on http://127.0.0.1:${port}`;
    while (!out.includes(banner)) await Promise.race([once(child.stdout, 'data'), exited.then(() => expect.fail(`exited before the banner: ${out}`))]);
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
});
