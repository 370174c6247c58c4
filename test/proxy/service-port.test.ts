// The service port (--service-port, sandbox.md 13 containers): TLS only, serving each service host by the name its
// client asks for, as the proxy does in a tunnel. The container image sets it to 443 so an app container that
// resolves api.pague.dev to the sandbox reaches it at https://api.pague.dev; here it is a free port of 127.0.0.1 and
// curl's --resolve plays the network alias (no name is looked up).
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect as netConnect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as tlsConnect } from 'node:tls';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/app';
import { readCliConfig } from '../../src/config';
import { DEFAULT } from '../helpers/harness';

const home = mkdtempSync(join(tmpdir(), 'pix-sandbox-service-port-'));
const logs: string[] = [];
let sb: Sandbox;
let port = 0;

beforeAll(async () => {
  sb = await createSandbox({ home, servicePort: 0, log: (line) => logs.push(line) });
  await sb.listen({ port: 0 });
  port = Number(new URL(sb.serviceUrl!).port);
});
afterAll(async () => {
  await sb.close();
  rmSync(home, { recursive: true, force: true });
});

/** curl to https://NAME:port/path, NAME resolved to 127.0.0.1, trusting the sandbox's CA. */
function curl(name: string, path: string, headers: string[] = []): Promise<{ status: string; body: string; err: string }> {
  const args = ['-sS', '--cacert', join(home, 'ca.pem'), '--resolve', `${name}:${port}:127.0.0.1`, '-w', '\n%{http_code}', ...headers.flatMap((h) => ['-H', h]), `https://${name}:${port}${path}`];
  return new Promise((resolve) =>
    execFile('curl', args, { env: { PATH: process.env.PATH }, timeout: 20_000 }, (_err, stdout, stderr) => {
      const lines = stdout.split('\n');
      resolve({ status: lines.pop() ?? '', body: lines.join('\n'), err: stderr });
    }),
  );
}

test('listening, it has made the CA and the bundle a container trusts from a shared volume', () => {
  expect(sb.serviceUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
  expect(readFileSync(join(home, 'ca-bundle.pem'), 'utf8')).toContain(readFileSync(join(home, 'ca.pem'), 'utf8').trim());
});

test('https://api.pague.dev/v1 is the v1 face with the default API key', async () => {
  const res = await curl('api.pague.dev', '/v1/account', [`X-API-Key: ${DEFAULT.apiKey}`]);
  expect(res.status, res.body + res.err).toBe('200');
  expect(JSON.parse(res.body).account.id).toBe(DEFAULT.accountId);
});

test('https://api-gateway.pague.dev/v2 is the v2 face: without a token, its own 401', async () => {
  const res = await curl('api-gateway.pague.dev', '/v2/account');
  expect(res.status, res.body + res.err).toBe('401');
  expect(JSON.parse(res.body).statusCode).toBe(401);
});

test('a service name reaches its face only: /_sandbox/health there is the v1 face\'s 404', async () => {
  const res = await curl('api.pague.dev', '/_sandbox/health');
  expect(res.status, res.body).toBe('404');
});

test('a TLS hello for a name it does not serve is closed with an alert, and the log names the name and the served ones', async () => {
  const err = await new Promise<string>((resolve) => {
    const s = tlsConnect({ host: '127.0.0.1', port, servername: 'evil.example', rejectUnauthorized: false }, () => resolve('connected'));
    s.on('error', (e) => resolve(e.message));
  });
  expect(err).toMatch(/unrecognized name|alert/i);
  expect(logs.join('\n')).toContain("asks for 'evil.example', which this port does not serve: it serves api.pague.dev, api-gateway.pague.dev");
});

test('plain HTTP on the service port answers 400 HTTPS_REQUIRED, and the port keeps serving', async () => {
  const text = await new Promise<string>((resolve, reject) => {
    const s = netConnect(port, '127.0.0.1', () => s.write('GET /v1/account HTTP/1.1\r\nHost: api.pague.dev\r\n\r\n'));
    let t = '';
    s.setEncoding('latin1');
    s.on('data', (d: string) => (t += d));
    s.on('close', () => resolve(t));
    s.on('error', reject);
  });
  expect(text).toMatch(/^HTTP\/1\.1 400/);
  expect(text).toContain('HTTPS_REQUIRED');
  expect((await curl('api.pague.dev', '/v1/account', [`X-API-Key: ${DEFAULT.apiKey}`])).status).toBe('200');
});

test('a service port in use is said (serviceError) and the sandbox serves on its own port without it', async () => {
  const other = await createSandbox({ home, servicePort: port });
  try {
    const url = await other.listen({ port: 0 });
    expect(other.serviceUrl).toBeUndefined();
    expect(other.serviceError).toContain(`the service port ${port} on 127.0.0.1 is already in use`);
    expect((await fetch(`${url}/_sandbox/health`)).status).toBe(200);
  } finally {
    await other.close();
  }
});

test.each([
  [['--service-port', '443'], {}, 443],
  [[], { SANDBOX_SERVICE_PORT: '8443' }, 8443],
  [[], {}, undefined],
])('%j %j sets the service port to %s', (argv, env, expected) => {
  const config = readCliConfig(argv, env);
  if (!('options' in config)) throw new Error(JSON.stringify(config));
  expect(config.options.servicePort).toBe(expected);
});

test.each(['abc', '70000', '4.5'])('--service-port %s is refused naming the flag', (value) => {
  expect(readCliConfig(['--service-port', value], {})).toEqual({ error: expect.stringContaining(`--service-port must be a whole number from 0 to 65535`) });
});
