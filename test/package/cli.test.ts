// The built CLI's package-level behaviour: --version from package.json, the port-in-use message, and the banner
// saying whether the state was resumed from a data file.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { afterEach, expect, test } from 'vitest';
import { VERSION } from '../../src/app';
import { http, killLeftovers, ROOT, runCli, startCli, tempDir } from '../foundation/process';

const cleanups: (() => void)[] = [];
afterEach(() => {
  killLeftovers();
  for (const c of cleanups.splice(0)) c();
});

const packageVersion = (JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as { version: string }).version;

test.each([['--version'], ['-v']])('%s prints the version of package.json and exits 0', async (flag) => {
  const res = await runCli([flag]);
  expect(res.code, res.stderr).toBe(0);
  expect(res.stdout).toBe(`${packageVersion}\n`);
});

test('VERSION, the banner and GET /_sandbox/health all give the version of package.json', async () => {
  expect(VERSION).toBe(packageVersion);
  const cli = await startCli(['--port', '0']);
  expect(cli.stdout()).toContain(`  version     ${packageVersion}\n`);
  const health = await http(cli.url, 'GET', '/_sandbox/health');
  expect(health.body.version, health.text).toBe(packageVersion);
  expect(await cli.stop(), cli.stderr()).toBe(0);
});

test('a port already in use exits 1 with a message that suggests --port 0', async () => {
  const blocker = createServer();
  await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
  cleanups.push(() => blocker.close());
  const port = (blocker.address() as { port: number }).port;
  const res = await runCli(['--port', String(port)]);
  expect(res.code, res.stdout + res.stderr).toBe(1);
  expect(res.stderr).toContain(`pix-sandbox could not start: port ${port} on 127.0.0.1 is already in use`);
  expect(res.stderr).toContain('--port 0 for any free port');
  expect(res.stdout).not.toContain('listening');
});

test('the banner says a data file was new on the first start and resumed from on the next', async () => {
  const tmp = tempDir();
  cleanups.push(tmp.cleanup);
  const file = tmp.file('state.json');
  const first = await startCli(['--port', '0', '--data', file]);
  expect(first.stdout()).toContain(`  state       file ${file} (new)\n`);
  expect(await first.stop(), first.stderr()).toBe(0);
  const second = await startCli(['--port', '0', '--data', file]);
  expect(second.stdout()).toContain(`  state       file ${file} (resumed from it)\n`);
  expect(await second.stop(), second.stderr()).toBe(0);
});
