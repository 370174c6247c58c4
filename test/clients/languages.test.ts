// Unmodified client apps in every language a PIX integrator writes in, run as users run them (sandbox.md 13): the
// built CLI starts the sandbox on a real port, a bash shell does `eval "$(pix-sandbox env)"` and starts one app of
// test/clients/apps, whose source names only the service's production URLs and its own configuration. Each app creates
// a v1 PIX, a v2 charge and an API Pix cob on a bank's name given with --service-host. The sandbox and the apps run in
// a network namespace with only the loopback (unshare -n): a lookup or a connection off it fails loudly, so an app that
// bypassed the sandbox cannot pass. A missing toolchain, or no permission to unshare, skips with a message unless
// RECIPES_REQUIRED=1.
import { spawn, execFile, execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CLI, ROOT, tempDir } from '../foundation/process';
import { DEFAULT } from '../helpers/harness';

const required = process.env.RECIPES_REQUIRED === '1';
const APPS = join(ROOT, 'test', 'clients', 'apps');
const BANK = 'pix.bank.example';
const python = process.env.PYTHON ?? (existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3');
const tmp = tempDir();

/** Why a probe fails, or undefined when it passes. */
function fails(probe: readonly string[]): string | undefined {
  try {
    execFileSync(probe[0]!, probe.slice(1), { stdio: 'ignore', timeout: 30_000 });
    return undefined;
  } catch {
    return `\`${probe.join(' ')}\` failed`;
  }
}

function skipped(what: string, reason: string | undefined, install: string): boolean {
  if (reason === undefined) return false;
  if (required) throw new Error(`RECIPES_REQUIRED=1 but ${what} is not available: ${reason} (${install}).`);
  console.log(`[clients] skipping ${what}: ${reason} (${install}).`);
  return true;
}

const guardMissing = skipped('the clients in every language (they run under an egress guard)', fails(['unshare', '-n', 'true']) ?? fails(['nsenter', '--version']), 'run as root, or where unshare -n is permitted');

// [client, probe of its toolchain, what installs it, the command that starts the app in test/clients/apps]
const CLIENTS: [string, string[], string, string][] = [
  ['curl', ['curl', '--version'], 'apt-get install curl', 'bash curl.sh'],
  ['Python requests', [python, '-c', 'import requests'], 'apt-get install python3-requests', `${python} python_requests.py`],
  ['Python httpx', [python, '-c', 'import httpx'], 'apt-get install python3-httpx', `${python} python_httpx.py`],
  ['Python urllib', [python, '--version'], 'apt-get install python3', `${python} python_urllib.py`],
  ["PHP's curl", ['php', '-r', 'exit(extension_loaded("curl") ? 0 : 1);'], 'apt-get install php-cli php-curl', 'php php_curl.php'],
  ['PHP Guzzle', ['php', '-r', 'exit(is_file("/usr/share/php/GuzzleHttp/autoload.php") ? 0 : 1);'], 'apt-get install php-cli php-guzzlehttp-guzzle', 'php php_guzzle.php'],
  ['PHP file_get_contents', ['php', '--version'], 'apt-get install php-cli', 'php php_streams.php'],
  ["Java's HttpClient", ['javac', '-version'], 'apt-get install openjdk-17-jdk-headless', 'java HttpClientApp.java'],
  ["Java's HttpURLConnection", ['javac', '-version'], 'apt-get install openjdk-17-jdk-headless', 'java UrlConnectionApp.java'],
  ["Go's net/http", ['go', 'version'], 'apt-get install golang-go', 'go run net_http.go'],
  ["Ruby's net/http", ['ruby', '--version'], 'apt-get install ruby', 'ruby net_http.rb'],
  ["Node's fetch", [process.execPath, '--version'], '', `${JSON.stringify(process.execPath)} node_fetch.mjs`],
  ['node:https', [process.execPath, '--version'], '', `${JSON.stringify(process.execPath)} node_https.mjs`],
];

interface Guarded {
  home: string;
  process: ChildProcess;
  ready: { url: string; pid: number };
}
const sandboxes: Guarded[] = [];

/**
 * The built CLI with `args` in a network namespace of its own (unshare -n), whose loopback is brought up first; the
 * apps join it (nsenter). Its home is `home`.
 */
async function startGuarded(home: string, args: string[]): Promise<Guarded> {
  const child = spawn('unshare', ['-n', 'bash', '-c', 'ip link set lo up && exec "$0" "$@"', process.execPath, CLI, '--port', '0', '--ready-json', '--service-host', `${BANK}=api-pix`, ...args], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, PIX_SANDBOX_HOME: home },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const guarded: Guarded = { home, process: child, ready: undefined as never };
  sandboxes.push(guarded);
  let out = '';
  let err = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
  guarded.ready = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ready line within 20 s: ${out}${err}`)), 20_000);
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      if (out.includes('\n')) {
        clearTimeout(timer);
        resolve(JSON.parse(out.split('\n')[0]!));
      }
    });
    child.once('exit', (code) => reject(new Error(`the sandbox exited (${code}): ${out}${err}`)));
  });
  return guarded;
}

afterAll(() => {
  for (const s of sandboxes) s.process.kill('SIGTERM');
  tmp.cleanup();
});

/** Runs `script` in bash inside `sandbox`'s network namespace, `pix-sandbox` being the built CLI; `cwd` under the apps. */
function inGuard(sandbox: Guarded, script: string, extra: Record<string, string> = {}, cwd = APPS): Promise<{ code: number; out: string }> {
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    PIX_SANDBOX_HOME: sandbox.home,
    GOFLAGS: '-mod=mod',
    GOPROXY: 'off',
    GOTOOLCHAIN: 'local',
    GOCACHE: process.env.GOCACHE ?? join(process.env.HOME ?? tmp.dir, '.cache', 'go-build'),
    ...extra,
  };
  const shell = `pix-sandbox() { ${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} "$@"; }\n${script}`;
  return new Promise((resolve) => {
    execFile('nsenter', [`--net=/proc/${sandbox.ready.pid}/ns/net`, 'bash', '-c', shell], { env, cwd, timeout: 200_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, out: `${stdout}\n${stderr}` }),
    );
  });
}

describe.skipIf(guardMissing)('unmodified apps after eval "$(pix-sandbox env)", off the network', () => {
  let sandbox: Guarded;
  beforeAll(async () => {
    sandbox = await startGuarded(join(tmp.dir, 'home'), []);
  }, 30_000);

  test('the guard holds: without the environment, the service\'s name is not reached', async () => {
    const res = await inGuard(sandbox, 'curl -sS --max-time 10 https://api.pague.dev/v1/account');
    expect(res.code, res.out).not.toBe(0);
    expect(res.out).toMatch(/Could not resolve host|Couldn't connect|Network is unreachable/);
  });

  test.each(CLIENTS.map(([name, probe, install, command], i) => ({ name, probe, install, command, txid: `clientapp${String(i).padStart(2, '0')}`.padEnd(30, 'x') })))(
    '$name creates a v1 PIX, a v2 charge and an API Pix cob',
    async ({ name, probe, install, command, txid }) => {
      if (skipped(name, fails(probe), install)) return;
      const config = { APP_API_KEY: DEFAULT.apiKey, APP_CLIENT_ID: DEFAULT.full.clientId, APP_CLIENT_SECRET: DEFAULT.full.clientSecret, APP_PIX_URL: `https://${BANK}`, APP_TXID: txid };
      const res = await inGuard(sandbox, `eval "$(pix-sandbox env)" && exec ${command}`, config);
      expect(res.code, res.out).toBe(0);
      // file_get_contents leaves the status unread (its header variable is the wrapper's, see docs): it says created.
      expect(res.out, res.out).toMatch(/^v1 (201|created) [0-9a-f-]{36}$/m);
      expect(res.out, res.out).toMatch(/^v2 (201|created) [0-9a-f-]{36}$/m);
      expect(res.out, res.out).toMatch(/^cob (201|created) ATIVA$/m);
    },
    240_000,
  );
});

// The API Pix part under --https --mtls: each app of test/clients/apps/mtls presents the account's client certificate,
// issued by the control API, as that language's users configure one: PEM files (curl --cert/--key, requests' and
// httpx's cert, PHP's CURLOPT_SSLCERT/SSLKEY and Guzzle's cert/ssl_key, Go's tls.LoadX509KeyPair, Ruby's cert/key) or
// the .p12 and its passphrase (Java's PKCS12 KeyStore, Node's https.Agent pfx and fetch's undici dispatcher), named
// by the app's own configuration.
const MTLS_CLIENTS = ['curl', 'Python requests', 'Python httpx', "PHP's curl", 'PHP Guzzle', "Java's HttpClient", "Go's net/http", "Ruby's net/http", 'node:https', "Node's fetch"];

describe.skipIf(guardMissing)('under --https --mtls, unmodified apps present the account\'s client certificate', () => {
  const MTLS_APPS = join(APPS, 'mtls');
  const certs = join(tmp.dir, 'certs');
  let sandbox: Guarded;
  let config: Record<string, string>;
  beforeAll(async () => {
    sandbox = await startGuarded(join(tmp.dir, 'mtls-home'), ['--https', '--mtls']);
    // Issued as a user does, through the control API of the sandbox `env` names (NO_PROXY: straight to it).
    const issued = await inGuard(sandbox, `eval "$(pix-sandbox env)" && curl -sS --fail-with-body -H 'content-type: application/json' -d '{"passphrase":"segredo"}' "$PIX_SANDBOX_URL/_sandbox/accounts/${DEFAULT.accountId}/client-certificates"`);
    expect(issued.code, issued.out).toBe(0);
    const body = JSON.parse(issued.out.split('\n')[0]!) as { certificate: string; key: string; p12: string; passphrase: string };
    execFileSync('mkdir', ['-p', certs]);
    writeFileSync(join(certs, 'client.pem'), body.certificate);
    writeFileSync(join(certs, 'client-key.pem'), body.key);
    writeFileSync(join(certs, 'client.p12'), Buffer.from(body.p12, 'base64'));
    config = {
      APP_CLIENT_ID: DEFAULT.full.clientId,
      APP_CLIENT_SECRET: DEFAULT.full.clientSecret,
      APP_PIX_URL: `https://${BANK}`,
      APP_CLIENT_CERT: join(certs, 'client.pem'),
      APP_CLIENT_KEY: join(certs, 'client-key.pem'),
      APP_CLIENT_P12: join(certs, 'client.p12'),
      APP_CLIENT_P12_PASSWORD: body.passphrase,
    };
  }, 60_000);

  test.each(MTLS_CLIENTS.map((name, i) => ({ name, txid: `mtlsapp${String(i).padStart(2, '0')}`.padEnd(30, 'x') })))(
    '$name takes a token and creates a cob with the certificate',
    async ({ name, txid }) => {
      const [, probe, install, command] = CLIENTS.find(([n]) => n === name)!;
      if (skipped(name, fails(probe), install)) return;
      const res = await inGuard(sandbox, `eval "$(pix-sandbox env)" && exec ${command}`, { ...config, APP_TXID: txid }, MTLS_APPS);
      expect(res.code, res.out).toBe(0);
      expect(res.out, res.out).toMatch(/^cob 201 ATIVA$/m);
    },
    240_000,
  );

  test('without the certificate, curl gets the 401 NaoAutenticado naming what to send, and no cob is made', async () => {
    const txid = 'mtlsnocertificatexxxxxxxxxxxxx';
    const { APP_CLIENT_CERT: _cert, APP_CLIENT_KEY: _key, ...bare } = config;
    const refused = await inGuard(sandbox, 'eval "$(pix-sandbox env)" && exec bash curl.sh', { ...bare, APP_TXID: txid }, MTLS_APPS);
    expect(refused.code, refused.out).not.toBe(0);
    expect(refused.out).toMatch(/^cob 401 $/m);
    const problem = JSON.parse(refused.out.split('\n').find((l) => l.startsWith('{'))!);
    expect(problem).toMatchObject({ type: 'https://pix.bcb.gov.br/api/v2/error/NaoAutenticado', status: 401 });
    expect(problem.detail).toContain('presented none');
    expect(problem.detail).toContain(`/_sandbox/accounts/{id}/client-certificates`);
    // The same txid is created afresh with the certificate: the refused PUT made nothing.
    const made = await inGuard(sandbox, 'eval "$(pix-sandbox env)" && exec bash curl.sh', { ...config, APP_TXID: txid }, MTLS_APPS);
    expect(made.out, made.out).toMatch(/^cob 201 ATIVA$/m);
  }, 60_000);
});
