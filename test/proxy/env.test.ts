// `pix-sandbox env` (sandbox.md 13) as a client app's suite uses them: the built CLI on a real
// port of 127.0.0.1, then a client process whose environment is only what `env` printed, calling the service's
// production URL. curl, Python and Go honour the proxy variables and the CA bundle (a Node process's hook:
// register.test.ts; test/clients runs an app of every language under an egress guard). A missing toolchain skips its
// test and says so, unless RECIPES_REQUIRED=1 (as test/recipes does).
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CLI, killLeftovers, runCli, startCli, tempDir, type RunningCli } from '../foundation/process';
import { DEFAULT } from '../helpers/harness';

const required = process.env.RECIPES_REQUIRED === '1';
const tmp = tempDir();
const home = join(tmp.dir, 'home');
let cli: RunningCli;

beforeAll(async () => {
  cli = await startCli(['--port', '0', '--service-host', 'pix.bank.example=api-pix'], { PIX_SANDBOX_HOME: home });
}, 30_000);
afterAll(async () => {
  await cli?.stop();
  killLeftovers();
  tmp.cleanup();
});

/** The parent's PATH and HOME only (no proxy variable of the developer's shell), plus `extra`. */
const bareEnv = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({ PATH: process.env.PATH, HOME: process.env.HOME, PIX_SANDBOX_HOME: home, ...extra });

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv, cwd = tmp.dir): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(cmd, args, { env, cwd, timeout: 110_000 }, (err, stdout, stderr) => resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, out: `${stdout}\n${stderr}` }));
  });
}

/** `env --format json` for the running sandbox, as a variables object. */
async function variables(): Promise<Record<string, string>> {
  const res = await run(process.execPath, [CLI, 'env', '--format', 'json', '--url', cli.url], bareEnv());
  expect(res.code, res.out).toBe(0);
  return JSON.parse(res.out) as Record<string, string>;
}

function missing(name: string, probe: [string, string[]], install: string): boolean {
  try {
    execFileSync(probe[0], probe[1], { stdio: 'ignore' });
    return false;
  } catch {
    if (required) throw new Error(`RECIPES_REQUIRED=1 but ${name} is missing: \`${probe.join(' ')}\` failed (${install}).`);
    console.log(`[proxy env] skipping the ${name} client: \`${probe[0]} ${probe[1].join(' ')}\` failed (${install}).`);
    return true;
  }
}

describe('pix-sandbox env', () => {
  test('prints every variable a client needs, the files it names written for the CA of the sandbox at --url', async () => {
    const vars = await variables();
    const caPem = readFileSync(join(home, 'ca.pem'), 'utf8');
    const dir = dirname(vars.SSL_CERT_FILE!);
    expect(dirname(dir)).toBe(join(home, 'env'));
    expect(vars).toMatchObject({
      HTTPS_PROXY: cli.url,
      HTTP_PROXY: cli.url,
      NO_PROXY: 'localhost,127.0.0.1,::1',
      SSL_CERT_FILE: join(dir, 'ca-bundle.pem'),
      REQUESTS_CA_BUNDLE: join(dir, 'ca-bundle.pem'),
      CURL_CA_BUNDLE: join(dir, 'ca-bundle.pem'),
      NODE_EXTRA_CA_CERTS: join(dir, 'ca.pem'),
      PIX_SANDBOX_URL: cli.url,
      PDEV_API_KEY: DEFAULT.apiKey,
      SANDBOX_SERVICE_HOSTS: 'api.pague.dev=v1,api-gateway.pague.dev=v2,pix.bank.example=api-pix',
      PHP_INI_SCAN_DIR: `:${join(dir, 'php')}`,
    });
    expect(vars.NODE_OPTIONS).toBe(`--require=${join(dirname(CLI), 'register.cjs')}`); // no space in the path here: unquoted
    expect(vars.JAVA_TOOL_OPTIONS).toBe(
      `-Dhttps.proxyHost=127.0.0.1 -Dhttps.proxyPort=${cli.port} -Dhttp.proxyHost=127.0.0.1 -Dhttp.proxyPort=${cli.port} -Dhttp.nonProxyHosts=localhost|127.0.0.1|[::1] ` +
        `-Djavax.net.ssl.trustStore=${join(dir, 'truststore.jks')} -Djavax.net.ssl.trustStorePassword=changeit -Djavax.net.ssl.trustStoreType=JKS`,
    );
    expect(readFileSync(join(dir, 'ca.pem'), 'utf8').trim()).toBe(caPem.trim());
    const text = readFileSync(join(dir, 'ca-bundle.pem'), 'utf8');
    expect(text).toContain(caPem.trim());
    // The system's CAs too: many certificates, not only the sandbox's; the trust store holds each of them.
    const count = text.match(/BEGIN CERTIFICATE/g)!.length;
    expect(count).toBeGreaterThan(10);
    expect(readFileSync(join(dir, 'truststore.jks')).readUInt32BE(8)).toBe(count);
    expect(readFileSync(join(dir, 'php', 'pix-sandbox.ini'), 'utf8')).toContain(`curl.cainfo = "${join(dir, 'ca-bundle.pem')}"`);
  });

  test('the CA comes from the sandbox at --url, not from this PIX_SANDBOX_HOME', async () => {
    const other = join(tmp.dir, 'another-home');
    const res = await run(process.execPath, [CLI, 'env', '--format', 'json', '--url', cli.url], bareEnv({ PIX_SANDBOX_HOME: other }));
    expect(res.code, res.out).toBe(0);
    const vars = JSON.parse(res.out) as Record<string, string>;
    expect(vars.NODE_EXTRA_CA_CERTS!.startsWith(join(other, 'env'))).toBe(true);
    expect(readFileSync(vars.NODE_EXTRA_CA_CERTS!, 'utf8').trim()).toBe(readFileSync(join(home, 'ca.pem'), 'utf8').trim());
    expect(existsSync(join(other, 'ca.pem')), 'no CA of its own made in the other home').toBe(false);
  });

  test('the sandbox serves its CA (never its key) and its proxy at /_sandbox/ca.pem and /_sandbox/proxy', async () => {
    const ca = await fetch(`${cli.url}/_sandbox/ca.pem`);
    expect(ca.status).toBe(200);
    expect(ca.headers.get('content-type')).toBe('application/x-pem-file');
    const pem = await ca.text();
    expect(pem.trim()).toBe(readFileSync(join(home, 'ca.pem'), 'utf8').trim());
    expect(pem).not.toContain('PRIVATE KEY');
    const proxy = await fetch(`${cli.url}/_sandbox/proxy`);
    expect(await proxy.json()).toEqual({
      serviceHosts: { 'api.pague.dev': 'v1', 'api-gateway.pague.dev': 'v2', 'pix.bank.example': 'api-pix' },
      proxyUrl: cli.url,
      caUrl: `${cli.url}/_sandbox/ca.pem`,
    });
  });

  test('--format github appends each variable to the file $GITHUB_ENV names, in the multi-line syntax', async () => {
    const file = join(tmp.dir, 'github-env');
    writeFileSync(file, 'EARLIER=1\n');
    const res = await run(process.execPath, [CLI, 'env', '--format', 'github', '--url', cli.url], bareEnv({ GITHUB_ENV: file }));
    expect(res.code, res.out).toBe(0);
    expect(res.out).toContain(`variables appended to ${file}`);
    const text = readFileSync(file, 'utf8');
    expect(text.startsWith('EARLIER=1\n')).toBe(true);
    const m = /^PIX_SANDBOX_URL<<(\S+)\n(.*)\n\1$/m.exec(text);
    expect(m?.[2], text).toBe(cli.url);
  });

  test.each([
    ['sh', `export PDEV_API_KEY='${DEFAULT.apiKey}'`],
    ['dotenv', `PDEV_API_KEY=${DEFAULT.apiKey}`],
    ['powershell', `$env:PDEV_API_KEY = '${DEFAULT.apiKey}'`],
  ])('--format %s writes each variable as that format does', async (format, line) => {
    const res = await run(process.execPath, [CLI, 'env', '--format', format, '--url', cli.url], bareEnv());
    expect(res.code, res.out).toBe(0);
    expect(res.out.split('\n')).toContain(line);
  });

  test('without --url it names the sandbox this home started last (its ready file)', async () => {
    const res = await run(process.execPath, [CLI, 'env'], bareEnv());
    expect(res.out).toContain(`export PIX_SANDBOX_URL='${cli.url}'`);
  });

  test.each([
    [['--format', 'xml'], {}, 2, "--format takes sh, dotenv, json, powershell, github, got 'xml'"],
    [['--format', 'github'], {}, 2, '--format github appends to the file $GITHUB_ENV names, and GITHUB_ENV is not set'],
    [['--url', 'ftp://x'], {}, 2, "--url takes the sandbox's base URL"],
    [['--nope'], {}, 2, "Unknown option '--nope'"],
    [['--url', 'http://127.0.0.1:1'], {}, 1, 'No sandbox answers at http://127.0.0.1:1 (ECONNREFUSED). Start it first (npx pix-sandbox'],
    [['--url', 'URL'], { PIX_SANDBOX_HOME: '/dev/null/home' }, 1, "PIX_SANDBOX_HOME=/dev/null/home cannot be written (ENOTDIR): env writes the CA bundle"],
  ])('env %j with %j exits %i saying what to send', async (args, extra, code, message) => {
    const res = await runCli(['env', ...args.map((a) => (a === 'URL' ? cli.url : a))], { PIX_SANDBOX_HOME: home, ...extra });
    expect(res.code, res.stderr).toBe(code);
    expect(res.stderr).toContain(message);
    expect(res.stdout).toBe('');
  });

  test('--ready-json names the proxy and the CA bundle', async () => {
    // A home of its own: this sandbox's ready file must not replace the one the other tests find.
    const other = join(tmp.dir, 'other-home');
    const res = await run('bash', ['-c', `timeout 20 node ${JSON.stringify(CLI)} --port 0 --ready-json 2>/dev/null | { read -r line; echo "$line"; kill $(echo "$line" | sed 's/.*"pid":\\([0-9]*\\).*/\\1/'); }`], bareEnv({ PIX_SANDBOX_HOME: other }));
    const ready = JSON.parse(res.out.split('\n')[0]!) as Record<string, string>;
    expect(ready.proxyUrl).toBe(ready.url);
    expect(ready.caBundle).toBe(join(other, 'ca-bundle.pem'));
    expect(readFileSync(ready.caBundle!, 'utf8')).toContain(readFileSync(join(other, 'ca.pem'), 'utf8').trim());
  });
});

describe('clients with only `pix-sandbox env` in their environment reach https://api.pague.dev/v1', () => {
  test('curl, after eval "$(pix-sandbox env)"', async () => {
    const res = await run('bash', ['-c', `eval "$(node ${JSON.stringify(CLI)} env)" && curl -sS -H "X-API-Key: $PDEV_API_KEY" https://api.pague.dev/v1/account`], bareEnv());
    expect(res.code, res.out).toBe(0);
    expect(JSON.parse(res.out).account.id).toBe(DEFAULT.accountId);
  });

  const python = process.env.PYTHON ?? 'python3';
  test.skipIf(missing('Python', [python, ['--version']], 'apt-get install python3'))('Python (requests when importable, else urllib)', async () => {
    const script = join(tmp.dir, 'client.py');
    writeFileSync(
      script,
      [
        'import json, os',
        'url = "https://api.pague.dev/v1/account"',
        'headers = {"X-API-Key": os.environ["PDEV_API_KEY"]}',
        'try:',
        '    import requests',
        '    body, how = requests.get(url, headers=headers, timeout=20).json(), "requests"',
        'except ImportError:',
        '    import urllib.request',
        '    body, how = json.load(urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=20)), "urllib"',
        'print(how, body["account"]["id"])',
      ].join('\n'),
    );
    const res = await run(python, [script], { ...bareEnv(), ...(await variables()), NODE_OPTIONS: '' });
    expect(res.code, res.out).toBe(0);
    expect(res.out).toMatch(new RegExp(`^(requests|urllib) ${DEFAULT.accountId}$`, 'm'));
  });

  test.skipIf(missing('Go', ['go', ['version']], 'apt-get install golang-go'))('Go (net/http, standard library)', { timeout: 120_000 }, async () => {
    const main = join(tmp.dir, 'main.go');
    writeFileSync(
      main,
      `package main

import (
	"fmt"
	"io"
	"net/http"
	"os"
)

func main() {
	req, _ := http.NewRequest("GET", "https://api.pague.dev/v1/account", nil)
	req.Header.Set("X-API-Key", os.Getenv("PDEV_API_KEY"))
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	body, _ := io.ReadAll(res.Body)
	fmt.Println(res.StatusCode, string(body))
}
`,
    );
    const goEnv = { GOFLAGS: '-mod=mod', GOPROXY: 'off', GOTOOLCHAIN: 'local', GOCACHE: process.env.GOCACHE ?? join(process.env.HOME ?? tmp.dir, '.cache', 'go-build') };
    const res = await run('go', ['run', main], { ...bareEnv(goEnv), ...(await variables()), NODE_OPTIONS: '' });
    expect(res.code, res.out).toBe(0);
    expect(res.out).toMatch(/^200 /);
    expect(res.out).toContain(DEFAULT.accountId);
  });
});
