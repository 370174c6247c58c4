// --ready-json on the built CLI as a harness in another language uses it: spawn `pix-sandbox --port 0 --ready-json`,
// read one line of stdout, parse it, call the addresses in it. The banner goes to stderr. Every flag's env variable
// gives the same configuration as the flag.
import { readFileSync } from 'node:fs';
import { get } from 'node:https';
import { join } from 'node:path';
import { afterEach, expect, onTestFinished, test } from 'vitest';
import { readCliConfig } from '../../src/config';
import { CLI, http, killLeftovers, spawnNode, tempDir } from '../foundation/process';

afterEach(killLeftovers);

/** Starts the CLI; `firstLine` resolves with its first stdout line (the ready line). */
function startReady(args: string[], env: Record<string, string> = {}) {
  const cli = spawnNode([CLI, ...args], env);
  return { ...cli, firstLine: cli.waitFor(/^([^\n]*)\n/).then((m) => m[1]!) };
}

test.each([
  ['the flag', ['--port', '0', '--ready-json'], {}],
  ['SANDBOX_READY_JSON=1', [], { PORT: '0', SANDBOX_READY_JSON: '1' }],
])('with %s, the first stdout line is one JSON object with the addresses and the pid; the banner is on stderr', async (_name, args, env) => {
  // The CA bundle the line names is written in PIX_SANDBOX_HOME: a home of the test's own, not the user's.
  const home = tempDir();
  onTestFinished(home.cleanup);
  const cli = startReady(args, { ...env, PIX_SANDBOX_HOME: home.dir });
  const line = await cli.firstLine;
  const ready = JSON.parse(line) as Record<string, unknown>;
  expect(Object.keys(ready).sort(), line).toEqual(['caBundle', 'controlUrl', 'pid', 'proxyUrl', 'url', 'v1Url', 'v2Url']);
  expect(ready.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  expect(ready.url).not.toBe('http://127.0.0.1:0');
  // The proxy (sandbox.md 13) is the same port; the bundle holds the system's CAs and the sandbox's.
  expect(ready).toEqual({ url: ready.url, v2Url: `${ready.url}/v2`, v1Url: `${ready.url}/v1`, controlUrl: `${ready.url}/_sandbox`, pid: cli.child.pid, proxyUrl: ready.url, caBundle: join(home.dir, 'ca-bundle.pem') });
  expect(cli.stderr()).toContain(`pix-sandbox listening on ${ready.url}\n`);

  const health = await http(ready.controlUrl as string, 'GET', '/health');
  expect(health.status, health.text).toBe(200);
  const auth = await http(ready.v2Url as string, 'POST', '/auth', { body: { client_id: 'mp_test_sandbox_full_access', client_secret: 'sandbox-secret-full-access' } });
  expect(auth.status, auth.text).toBe(200);

  expect(await cli.stop()).toBe(0);
  expect(cli.stdout(), 'nothing but the ready line on stdout').toBe(`${line}\n`);
});

test('under --https the ready line has https addresses and `ca`, the CA certificate that makes them trusted', async () => {
  const home = tempDir();
  try {
    const cli = startReady(['--port', '0', '--ready-json', '--https'], { PIX_SANDBOX_HOME: home.dir });
    const ready = JSON.parse(await cli.firstLine) as { url: string; controlUrl: string; ca: string; pid: number };
    expect(Object.keys(ready).sort()).toEqual(['ca', 'caBundle', 'controlUrl', 'pid', 'proxyUrl', 'url', 'v1Url', 'v2Url']);
    expect(ready.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(ready.ca.startsWith(home.dir), ready.ca).toBe(true);
    const status = await new Promise<number | undefined>((resolve, reject) =>
      get(`${ready.controlUrl}/health`, { ca: readFileSync(ready.ca) }, (res) => {
        res.resume();
        resolve(res.statusCode);
      }).on('error', reject),
    );
    expect(status).toBe(200);
    expect(await cli.stop()).toBe(0);
  } finally {
    home.cleanup();
  }
});

test('without --ready-json the banner stays on stdout and no JSON line is printed', async () => {
  const cli = startReady(['--port', '0']);
  const first = await cli.firstLine;
  expect(first).toMatch(/^pix-sandbox listening on http:\/\/127\.0\.0\.1:\d+$/);
  expect(await cli.stop()).toBe(0);
  expect(cli.stdout()).not.toContain('{"url"');
});

// The container sets these instead of flags (Dockerfile, compose.yaml): each must configure what its flag does.
test.each([
  ['--port', 'PORT', '0', (c: any) => c.port, 0],
  ['--host', 'HOST', '0.0.0.0', (c: any) => c.host, '0.0.0.0'],
  ['--data', 'SANDBOX_DATA', '/data/state.json', (c: any) => c.options.dataFile, '/data/state.json'],
  ['--webhook-url', 'SANDBOX_WEBHOOK_URL', 'http://app:3000/webhooks', (c: any) => c.options.webhookUrl, 'http://app:3000/webhooks'],
  ['--public-host', 'SANDBOX_PUBLIC_HOST', 'sandbox:4747', (c: any) => c.options.publicHost, 'sandbox:4747'],
  ['--fixtures', 'SANDBOX_FIXTURES', '/data/world.json', (c: any) => c.options.fixtures, '/data/world.json'],
  ['--seed', 'SANDBOX_SEED', '7', (c: any) => c.options.seed, 7],
  ['--freeze-clock', 'SANDBOX_FREEZE_CLOCK', undefined, (c: any) => c.options.freezeClock, true],
  ['--ready-json', 'SANDBOX_READY_JSON', undefined, (c: any) => c.readyJson, true],
  ['--https', 'SANDBOX_HTTPS', undefined, (c: any) => c.options.https, true],
] as const)('%s and %s configure the same thing', (flag, variable, value, read, expected) => {
  const fromFlag = readCliConfig(value === undefined ? [flag] : [flag, value], {});
  const fromEnv = readCliConfig([], { [variable]: value ?? '1' });
  expect(read(fromFlag)).toEqual(expected);
  expect(read(fromEnv)).toEqual(expected);
});

test('SANDBOX_ADMIN_TOKEN (no flag: a secret stays out of the process list) sets the control token', () => {
  expect((readCliConfig([], { SANDBOX_ADMIN_TOKEN: 's3cret' }) as any).options.adminToken).toBe('s3cret');
});
