// The built CLI (sandbox.md 1): usage, the start-up banner on a chosen port, and clear failures.
import { readFileSync, writeFileSync } from 'node:fs';
import { afterEach, expect, test } from 'vitest';
import { DEFAULT } from '../helpers/harness';
import { http, killLeftovers, runCli, startCli, stopAtBanner, tempDir } from './process';

const cleanups: (() => void)[] = [];
afterEach(() => {
  killLeftovers();
  for (const c of cleanups.splice(0)) c();
});

test('--help prints the usage with every option and exits 0', async () => {
  const res = await runCli(['--help']);
  expect(res.code, res.stderr).toBe(0);
  expect(res.stdout).toMatch(/^Usage: pix-sandbox \[options\]$/m);
  for (const option of ['--host', '--port', '--data', '--fixtures', '--seed', '--webhook-url', '--freeze-clock', '--help', 'SANDBOX_ADMIN_TOKEN'])
    expect(res.stdout, option).toContain(option);
});

test('--port 0 prints the port it chose in the banner, and that port answers', async () => {
  const cli = await startCli(['--port', '0']);
  expect(cli.port, cli.stdout()).toBeGreaterThan(0);
  expect(cli.stdout(), cli.stdout()).toContain(`pix-sandbox listening on http://127.0.0.1:${cli.port}\n`);
  expect(cli.stdout(), cli.stdout()).not.toContain('127.0.0.1:0');
  const health = await http(cli.url, 'GET', '/_sandbox/health');
  expect(health.status, health.text).toBe(200);
  expect(health.body.persistent, health.text).toBe(false);
  expect(await cli.stop(), cli.stderr()).toBe(0);
});

test('the banner prints the URLs and the default credentials, API key and webhook secret', async () => {
  const cli = await startCli(['--port', '0']);
  const out = cli.stdout();
  for (const expected of [
    `${cli.url}/v2`,
    `${cli.url}/v1`,
    `${cli.url}/_sandbox`,
    `${cli.url}/docs`,
    `console     ${cli.url}/  (pay page: ${cli.url}/pay)`,
    `${cli.url}/.well-known/jwks.json`,
    `BR Codes    point at pix-sandbox.test/pix/qr/<id>, served here at ${cli.url}/pix/qr/<id>`,
    `client_id=${DEFAULT.full.clientId}`,
    `client_secret=${DEFAULT.full.clientSecret}`,
    DEFAULT.apiKey,
    `secret=${DEFAULT.webhookSecret}`,
    'memory',
  ])
    expect(out, expected).toContain(expected);
  expect(await cli.stop(), cli.stderr()).toBe(0);
});

test('SIGTERM sent the moment the banner appears closes the sandbox cleanly (exit 0, state saved)', async () => {
  const tmp = tempDir();
  cleanups.push(tmp.cleanup);
  // Five times: a handler installed after the banner loses this race most of the time, so one run could pass by luck.
  for (let i = 0; i < 5; i++) {
    const file = tmp.file(`state-${i}.json`);
    const res = await stopAtBanner(['--port', '0', '--data', file]);
    expect({ code: res.code, signal: res.signal }, res.output).toEqual({ code: 0, signal: null });
    expect(Object.keys(JSON.parse(readFileSync(file, 'utf8')).accounts), res.output).toEqual([DEFAULT.accountId]);
  }
});

test('a data file that is not JSON makes the CLI exit non-zero with a message naming the file', async () => {
  const tmp = tempDir();
  cleanups.push(tmp.cleanup);
  const file = tmp.file('broken.json');
  writeFileSync(file, '{"version": 1, "accounts": ');
  const res = await runCli(['--port', '0', '--data', file]);
  expect(res.code, res.stdout + res.stderr).not.toBe(0);
  expect(res.stderr).toContain(file);
  expect(res.stderr).toMatch(/not valid JSON/);
  expect(res.stdout, 'it must not print a banner').not.toContain('listening');
});

test('a data file of another state version makes the CLI exit non-zero with a clear message', async () => {
  const tmp = tempDir();
  cleanups.push(tmp.cleanup);
  const file = tmp.file('old.json');
  writeFileSync(file, JSON.stringify({ version: 999, accounts: {} }));
  const res = await runCli(['--port', '0', '--data', file]);
  expect(res.code, res.stdout + res.stderr).not.toBe(0);
  expect(res.stderr).toMatch(/version 999/);
});

test.each([
  [['--port', 'abc'], /--port must be a whole number/],
  [['--port', '70000'], /--port must be a whole number/],
  [['--bogus'], /Usage: pix-sandbox/],
  [['--seed', 'x'], /--seed must be a whole number/],
])('bad arguments %j exit 2 with a message on stderr', async (args, message) => {
  const res = await runCli(args);
  expect(res.code, res.stdout + res.stderr).toBe(2);
  expect(res.stderr).toMatch(message);
});


test('listening beyond loopback with no admin token, the banner warns in one line and says how to set one; with a token it does not', async () => {
  const open = await startCli(['--port', '0', '--host', '0.0.0.0']);
  const warnings = open.stdout().split('\n').filter((l) => l.includes('WARNING'));
  expect(warnings, open.stdout()).toEqual([expect.stringMatching(/listening on 0\.0\.0\.0 with no admin token: .*read every secret.*SANDBOX_ADMIN_TOKEN=/)]);
  expect(await open.stop(), open.stderr()).toBe(0);
  const guarded = await startCli(['--port', '0', '--host', '0.0.0.0'], { SANDBOX_ADMIN_TOKEN: 'workshop-secret' });
  expect(guarded.stdout()).not.toContain('WARNING');
  expect(await guarded.stop(), guarded.stderr()).toBe(0);
  const local = await startCli(['--port', '0']);
  expect(local.stdout()).not.toContain('WARNING');
  expect(await local.stop(), local.stderr()).toBe(0);
});
