// The register hook (sandbox.md 13) as a client app's suite uses it: the built hook, in both of its forms (dist/register.cjs
// by --require, as `pix-sandbox env` puts it in NODE_OPTIONS, and dist/register.js by --import), loaded into unmodified
// Node apps (their source names no sandbox) that call the service's production URLs, with the built CLI on a real
// port. With no sandbox the hook changes nothing but the calls to service hosts, which fail naming PIX_SANDBOX_URL;
// with one, every way a Node app opens a connection reaches the sandbox's faces, client certificate included.
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect as netConnect, createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { TLSSocket, createSecureContext } from 'node:tls';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CLI, ROOT, freePort, killLeftovers, startCli, tempDir, type RunningCli } from '../foundation/process';
import { DEFAULT } from '../helpers/harness';
import { issueServerCertificate, loadOrCreateCa } from '../../src/tls';

const REGISTER = join(CLI, '..', 'register.js');
const REGISTER_CJS = join(CLI, '..', 'register.cjs');
/** The two ways a process loads the hook: [the flag, the file]. */
const FORMS: [string, string][] = [
  ['--require', REGISTER_CJS],
  ['--import', REGISTER],
];
/** Each of `rows` under each form: [form flag, form file, ...row]. */
const underEachForm = <T extends unknown[]>(rows: T[]) => FORMS.flatMap(([flag, file]) => rows.map((row) => [flag, file, ...row] as [string, string, ...T]));
const tmp = tempDir();
const apps = join(tmp.dir, 'apps');
mkdirSync(apps);
// The apps import undici and axios as apps do, from a node_modules beside them.
symlinkSync(join(ROOT, 'node_modules'), join(apps, 'node_modules'));
afterAll(() => {
  killLeftovers();
  tmp.cleanup();
});

/** The parent's PATH and HOME only (no proxy or sandbox variable of the developer's shell), plus `extra`. */
const bareEnv = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({ PATH: process.env.PATH, HOME: process.env.HOME, ...extra });

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(cmd, args, { env, cwd: apps, timeout: 60_000 }, (err, stdout, stderr) => resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, out: `${stdout}\n${stderr}` }));
  });
}

/** Writes an app file; its path. */
function app(name: string, source: string): string {
  const file = join(apps, name);
  writeFileSync(file, source);
  return file;
}

describe('with no sandbox answering, the hook changes nothing but the calls to service hosts', () => {
  let other: Server;
  let otherUrl: string;
  let downUrl: string;
  beforeAll(async () => {
    // Another host the app calls: not the service's, so never the sandbox's business.
    other = createHttpServer((_req, res) => res.end('other host')).listen(0, '127.0.0.1');
    await new Promise((ok) => other.once('listening', ok));
    otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}/`;
    downUrl = `http://127.0.0.1:${await freePort()}`;
  });
  afterAll(() => new Promise<void>((done) => other.close(() => done())));

  // [case, the environment, the start of the message]
  const cases: [string, () => Record<string, string>, () => string][] = [
    ['PIX_SANDBOX_URL unset', () => ({}), () => 'PIX_SANDBOX_URL is not set'],
    ['a sandbox that does not answer', () => ({ PIX_SANDBOX_URL: downUrl }), () => `PIX_SANDBOX_URL=${downUrl} does not answer (ECONNREFUSED)`],
    ['a PIX_SANDBOX_URL that is no URL', () => ({ PIX_SANDBOX_URL: 'not a url' }), () => "PIX_SANDBOX_URL='not a url' is not an http:// or https:// URL"],
    ['a bad SANDBOX_SERVICE_HOSTS', () => ({ PIX_SANDBOX_URL: downUrl, SANDBOX_SERVICE_HOSTS: 'pix.bank.example' }), () => 'SANDBOX_SERVICE_HOSTS: --service-host takes NAME=FACE'],
  ];

  test.each(underEachForm(cases))('%s, %s: %s: `node -e` runs and exits 0', async (flag, hook, _name, extra) => {
    const res = await run(process.execPath, [flag, hook, '-e', 'console.log(1)'], bareEnv(extra()));
    expect(res).toEqual({ code: 0, out: '1\n\n' });
  });

  test.each(underEachForm(cases))('%s, %s: %s: a fetch to https://api.pague.dev fails naming PIX_SANDBOX_URL and how to start the sandbox; other hosts answer', async (flag, hook, _name, extra, message) => {
    const file = app(
      'down.mjs',
      `const other = await fetch(process.argv[2]);
console.log('other', other.status, await other.text());
try {
  await fetch('https://api.pague.dev/v1/pix', { method: 'POST', body: '{}' });
} catch (err) {
  console.log('failed:', err.cause?.message ?? err.message);
}
`,
    );
    const res = await run(process.execPath, [flag, hook, file, otherUrl], bareEnv(extra()));
    expect(res.code, res.out).toBe(0);
    expect(res.out).toContain('other 200 other host');
    expect(res.out).toContain(`failed: pix-sandbox/register: ${message()}`);
    expect(res.out).toContain('npx pix-sandbox');
  });

  test.each([
    ['--require', REGISTER_CJS],
    ['--import', pathToFileURL(REGISTER).href],
  ])("npm and the sandbox's own CLI run in a shell whose NODE_OPTIONS loads the hook (%s)", async (flag, hook) => {
    const env = bareEnv({ NODE_OPTIONS: `${flag}=${hook}`, PIX_SANDBOX_URL: downUrl });
    const npm = await run('npm', ['--version'], env);
    expect(npm.code, npm.out).toBe(0);
    expect(npm.out).toMatch(/^\d+\.\d+\.\d+\n/);
    const help = await run(process.execPath, [CLI, '--help'], env);
    expect(help.code, help.out).toBe(0);
    expect(help.out).toContain('--service-host');
  });
});

// Each client calls one service host per face: v1's account (its API key), v2's token, and an API Pix token on a bank's
// name given with --service-host. `call(url, {method, headers, body})` resolves to [status, text].
const FOOTER = `
const basic = 'Basic ' + Buffer.from('${DEFAULT.full.clientId}:${DEFAULT.full.clientSecret}').toString('base64');
const [s1, t1] = await call('https://api.pague.dev/v1/account', { method: 'GET', headers: { 'x-api-key': '${DEFAULT.apiKey}' } });
console.log('v1', s1, JSON.parse(t1).account?.id);
const [s2, t2] = await call('https://api-gateway.pague.dev/v2/auth', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ client_id: '${DEFAULT.full.clientId}', client_secret: '${DEFAULT.full.clientSecret}' }) });
console.log('v2', s2, typeof JSON.parse(t2).access_token);
const [s3, t3] = await call('https://pix.bank.example/oauth/token', { method: 'POST', headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials' });
console.log('api-pix', s3, typeof JSON.parse(t3).access_token);
process.exit(0); // pools and agents kept alive
`;

const CLIENTS: [string, string][] = [
  ['global fetch', `const call = async (url, o) => { const r = await fetch(url, o); return [r.status, await r.text()]; };`],
  [
    "undici's own Agent as dispatcher",
    `import { Agent, request } from 'undici';
const dispatcher = new Agent({ keepAliveTimeout: 1000 });
const call = async (url, o) => { const r = await request(url, { ...o, dispatcher }); return [r.statusCode, await r.body.text()]; };`,
  ],
  [
    "undici's Pool per origin",
    `import { Pool } from 'undici';
const pools = new Map();
const call = async (url, o) => {
  const u = new URL(url);
  if (!pools.has(u.origin)) pools.set(u.origin, new Pool(u.origin, { connections: 2 }));
  const r = await pools.get(u.origin).request({ ...o, path: u.pathname + u.search });
  return [r.statusCode, await r.body.text()];
};`,
  ],
  [
    "undici's Client",
    `import { Client } from 'undici';
const call = async (url, o) => {
  const u = new URL(url);
  const client = new Client(u.origin);
  const r = await client.request({ ...o, path: u.pathname });
  const text = await r.body.text();
  await client.close();
  return [r.statusCode, text];
};`,
  ],
  [
    'node:https with its own Agent and its own ca list',
    `import { Agent, request } from 'node:https';
import { rootCertificates } from 'node:tls';
const agent = new Agent({ keepAlive: true, ca: [...rootCertificates] });
const call = (url, o) => new Promise((ok, fail) => {
  const req = request(url, { ...o, agent }, (res) => { let t = ''; res.setEncoding('utf8').on('data', (d) => (t += d)).on('end', () => ok([res.statusCode, t])); });
  req.on('error', fail);
  req.end(o.body);
});`,
  ],
  [
    'axios',
    `import axios from 'axios';
const call = async (url, o) => { const r = await axios({ url, method: o.method, headers: o.headers, data: o.body, validateStatus: () => true, responseType: 'text', transformResponse: (x) => x }); return [r.status, r.data]; };`,
  ],
  [
    'node:http to http:// URLs',
    `import { request } from 'node:http';
const call = (url, o) => new Promise((ok, fail) => {
  const req = request(url.replace('https:', 'http:'), o, (res) => { let t = ''; res.setEncoding('utf8').on('data', (d) => (t += d)).on('end', () => ok([res.statusCode, t])); });
  req.on('error', fail);
  req.end(o.body);
});`,
  ],
  [
    'raw tls.connect (named import)',
    `import { connect } from 'node:tls';
const call = (url, o) => new Promise((ok, fail) => {
  const u = new URL(url);
  const socket = connect({ host: u.hostname, port: 443 }, () => {
    const headers = { host: u.host, connection: 'close', 'content-length': Buffer.byteLength(o.body ?? ''), ...o.headers };
    socket.end(\`\${o.method} \${u.pathname} HTTP/1.1\\r\\n\${Object.entries(headers).map(([k, v]) => \`\${k}: \${v}\`).join('\\r\\n')}\\r\\n\\r\\n\${o.body ?? ''}\`);
  });
  let t = '';
  socket.setEncoding('utf8').on('data', (d) => (t += d)).on('end', () => {
    const [head, body] = t.split('\\r\\n\\r\\n');
    ok([Number(head.split(' ')[1]), /transfer-encoding: chunked/i.test(head) ? body.split('\\r\\n').filter((_, i) => i % 2).join('') : body]);
  }).on('error', fail);
});`,
  ],
];

describe('with a sandbox, every way a Node app opens a connection reaches its faces', () => {
  const home = join(tmp.dir, 'home');
  let cli: RunningCli;
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    cli = await startCli(['--port', '0', '--service-host', 'pix.bank.example=api-pix'], { PIX_SANDBOX_HOME: home });
    await loadOrCreateCa(home); // the CA NODE_EXTRA_CA_CERTS names is read at the app's start
    env = bareEnv({ PIX_SANDBOX_URL: cli.url, SANDBOX_SERVICE_HOSTS: 'pix.bank.example=api-pix', NODE_EXTRA_CA_CERTS: join(home, 'ca.pem') });
  }, 30_000);
  afterAll(() => cli?.stop());

  test.each(underEachForm(CLIENTS))('%s %s: %s', async (flag, hook, name, client) => {
    const file = app(`${name.replace(/\W+/g, '-')}.mjs`, `${client}\n${FOOTER}`);
    const res = await run(process.execPath, [flag, hook, file], env);
    expect(res.code, res.out).toBe(0);
    expect(res.out).toContain(`v1 200 ${DEFAULT.accountId}`);
    expect(res.out).toContain('v2 200 string');
    expect(res.out).toContain('api-pix 200 string');
  });

  test('NODE_OPTIONS from `pix-sandbox env` loads it: the whole set-up is eval "$(pix-sandbox env)"', async () => {
    const file = app('env-fetch.mjs', `${CLIENTS[0]![1]}\n${FOOTER}`);
    const res = await run('bash', ['-c', `eval "$(node ${JSON.stringify(CLI)} env --url ${cli.url})" && SANDBOX_SERVICE_HOSTS=pix.bank.example=api-pix node ${JSON.stringify(file)}`], bareEnv({ PIX_SANDBOX_HOME: home }));
    expect(res.code, res.out).toBe(0);
    expect(res.out).toContain(`v1 200 ${DEFAULT.accountId}`);
  });

  test('both forms in one process (NODE_OPTIONS from env, and --import given by hand) reach the sandbox', async () => {
    const file = app('both-forms.mjs', `${CLIENTS[0]![1]}\n${FOOTER}`);
    const res = await run(process.execPath, ['--import', REGISTER, file], { ...env, NODE_OPTIONS: `--require=${REGISTER_CJS}` });
    expect(res.code, res.out).toBe(0);
    expect(res.out).toContain('api-pix 200 string');
  });

  // A name in the hook's SANDBOX_SERVICE_HOSTS that the sandbox does not serve: never passed through to the real host.
  test.each(FORMS)('%s: a service host the sandbox does not serve is refused, naming it and --service-host', async (flag, hook) => {
    const file = app(
      'not-served.mjs',
      `try {
  const res = await fetch('https://pix.other.example/v2/cob');
  console.log('answered', res.status);
} catch (err) {
  console.log('failed:', err.cause?.message ?? err.message);
}`,
    );
    const res = await run(process.execPath, [flag, hook, file], { ...env, SANDBOX_SERVICE_HOSTS: 'pix.bank.example=api-pix,pix.other.example=api-pix' });
    expect(res.code, res.out).toBe(0);
    expect(res.out).toContain(`failed: pix-sandbox/register: PIX_SANDBOX_URL=${cli.url} refused the tunnel to pix.other.example:443 (HTTP/1.1 403 Forbidden): This sandbox does not serve 'pix.other.example'`);
    expect(res.out).toContain('--service-host pix.other.example=FACE');
  });

  // At the proxy: [who sends CONNECT to a host the sandbox does not serve, the header, the status line's start]
  const tunnels: [string, Record<string, string>, string][] = [
    ["the register hook (its header)", { 'x-pix-sandbox-hook': '1' }, 'HTTP/1.1 403 Forbidden'],
    ['any other client on this machine', {}, 'HTTP/1.1 200 '],
  ];
  test.each(tunnels)('CONNECT to a host the sandbox does not serve, from %s', async (_who, headers, status) => {
    const other = createHttpServer((_req, res) => res.end('other host')).listen(0, '127.0.0.1');
    await new Promise((ok) => other.once('listening', ok));
    const target = `127.0.0.1:${(other.address() as AddressInfo).port}`;
    try {
      const answer = await new Promise<string>((ok, fail) => {
        const socket = netConnect(cli.port, '127.0.0.1', () => {
          socket.write(`CONNECT ${target} HTTP/1.1\r\nhost: ${target}\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`);
        });
        let text = '';
        socket.setEncoding('latin1').on('data', (d: string) => {
          text += d;
          if (text.includes('\r\n\r\n')) setImmediate(() => (socket.destroy(), ok(text)));
        });
        socket.on('error', fail);
      });
      expect(answer.startsWith(status), answer).toBe(true);
      if (status.includes('403')) {
        const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
        expect(body).toMatchObject({ statusCode: 403, details: { code: 'NOT_A_SERVICE_HOST' } });
        expect(body.message).toContain(`does not serve '127.0.0.1'`);
        expect(body.message).toContain('--service-host 127.0.0.1=FACE');
      }
    } finally {
      await new Promise((done) => other.close(done));
    }
  });

  // Where the tunnel's trust comes from when NODE_EXTRA_CA_CERTS is not set: [case, variables, what the app prints].
  const trust: [string, () => Record<string, string>, RegExp][] = [
    ['the ca.pem of PIX_SANDBOX_HOME (a sandbox of this machine)', () => ({ PIX_SANDBOX_HOME: home }), /^v1 200 /m],
    ['PIX_SANDBOX_CA', () => ({ PIX_SANDBOX_HOME: join(tmp.dir, 'empty-home'), PIX_SANDBOX_CA: join(home, 'ca.pem') }), /^v1 200 /m],
    ['neither: the error says how to trust it', () => ({ PIX_SANDBOX_HOME: join(tmp.dir, 'empty-home') }), /the sandbox's CA is not trusted: set NODE_EXTRA_CA_CERTS or PIX_SANDBOX_CA/],
  ];
  test.each(trust)('with no NODE_EXTRA_CA_CERTS, the tunnel trusts %s', async (_case, vars, printed) => {
    const file = app('trust-fetch.mjs', `const res = await fetch('https://api.pague.dev/v1/account', { headers: { 'x-api-key': ${JSON.stringify(DEFAULT.apiKey)} } }).catch((err) => ({ status: 'error', json: () => ({ id: String(err.cause?.message ?? err.message) }) }));
console.log('v1', res.status, (await res.json()).id);`);
    const { NODE_EXTRA_CA_CERTS: _unset, ...rest } = env;
    const res = await run(process.execPath, ['--import', REGISTER, file], { ...rest, ...vars() });
    expect(res.out).toMatch(printed);
  });
});

// The app's client certificate, set as API Pix SDKs set it (an https.Agent's pfx and passphrase, or cert and key).
const CERTIFICATE_CLIENT = `import { Agent, request } from 'node:https';
import { readFileSync } from 'node:fs';
const [, , dir, kind, url, token] = process.argv;
const agent = new Agent(kind === 'pfx' ? { pfx: readFileSync(dir + '/client.p12'), passphrase: 'segredo' } : { cert: readFileSync(dir + '/client.pem'), key: readFileSync(dir + '/client-key.pem') });
request(url, { agent, headers: token ? { authorization: 'Bearer ' + token } : {} }, (res) => {
  let t = '';
  res.setEncoding('utf8').on('data', (d) => (t += d)).on('end', () => console.log(res.statusCode, t));
}).on('error', (err) => console.log('error', err.message)).end();
`;

describe('under --https --mtls, the client certificate goes with the TLS', () => {
  const home = join(tmp.dir, 'mtls-home');
  const certs = join(tmp.dir, 'certs');
  let cli: RunningCli;
  let env: NodeJS.ProcessEnv;
  let client: string;
  const ca = () => readFileSync(join(home, 'ca.pem'));
  const own = (method: string, path: string, headers: Record<string, string> = {}, body?: string) =>
    new Promise<{ status: number; body: any }>((ok, fail) => {
      const req = httpsRequest(`${cli.url}${path}`, { method, headers, ca: ca() }, (res) => {
        let t = '';
        res.setEncoding('utf8').on('data', (d) => (t += d)).on('end', () => ok({ status: res.statusCode!, body: JSON.parse(t) }));
      });
      req.on('error', fail).end(body);
    });
  let hasOpenssl = true;

  beforeAll(async () => {
    cli = await startCli(['--port', '0', '--https', '--mtls', '--service-host', 'pix.bank.example=api-pix'], { PIX_SANDBOX_HOME: home });
    mkdirSync(certs);
    const issued = await own('POST', `/_sandbox/accounts/${DEFAULT.accountId}/client-certificates`);
    expect(issued.status).toBe(201);
    writeFileSync(join(certs, 'client.pem'), issued.body.certificate);
    writeFileSync(join(certs, 'client-key.pem'), issued.body.key);
    const p12 = await run('openssl', ['pkcs12', '-export', '-in', join(certs, 'client.pem'), '-inkey', join(certs, 'client-key.pem'), '-out', join(certs, 'client.p12'), '-passout', 'pass:segredo'], bareEnv());
    hasOpenssl = p12.code === 0;
    if (!hasOpenssl) console.log(`[register] no openssl to make a .p12: the pfx case runs as cert and key (${p12.out.trim()})`);
    env = bareEnv({ PIX_SANDBOX_URL: cli.url, SANDBOX_SERVICE_HOSTS: 'pix.bank.example=api-pix', NODE_EXTRA_CA_CERTS: join(home, 'ca.pem') });
    client = app('certificate-client.mjs', CERTIFICATE_CLIENT);
  }, 30_000);
  afterAll(() => cli?.stop());

  const kind = (k: string) => (k === 'pfx' && !hasOpenssl ? 'pem' : k);

  /**
   * A stand-in for the sandbox's listener that asks for a client certificate: it takes CONNECT, ends the tunnel's TLS
   * with a leaf of the sandbox's CA for the name, and answers with the common name of the certificate it got.
   */
  async function certificateEcho(): Promise<{ url: string; close: () => Promise<void> }> {
    const local = await loadOrCreateCa(home);
    const secureContext = createSecureContext({ ...(await issueServerCertificate(local, ['pix.bank.example'])), ca: local.cert });
    const server = createNetServer((socket: Socket) => {
      socket.once('data', (connect: Buffer) => {
        expect(connect.toString('latin1')).toMatch(/^CONNECT pix\.bank\.example:443 HTTP\/1\.1\r\n/);
        const rest = connect.subarray(connect.indexOf('\r\n\r\n') + 4);
        socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        socket.pause(); // what came after CONNECT stays in the socket's buffer, where the TLSSocket reads it first
        if (rest.length) socket.unshift(rest);
        const tls = new TLSSocket(socket, { isServer: true, secureContext, requestCert: true, rejectUnauthorized: false });
        tls.once('data', () => {
          const cn = tls.getPeerCertificate().subject?.CN ?? 'none';
          tls.end(`HTTP/1.1 200 OK\r\ncontent-length: ${cn.length}\r\nconnection: close\r\n\r\n${cn}`);
        });
        tls.on('error', () => socket.destroy());
      });
    }).listen(0, '127.0.0.1');
    await new Promise((ok) => server.once('listening', ok));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((done) => server.close(() => done())) };
  }

  test.each(['pfx', 'pem'])("the agent's certificate (%s) reaches the TLS at the end of the tunnel", async (k) => {
    const echo = await certificateEcho();
    try {
      const res = await run(process.execPath, ['--import', REGISTER, client, certs, kind(k), 'https://pix.bank.example/v2/cob'], { ...env, PIX_SANDBOX_URL: echo.url });
      expect(res.out.trim()).toBe(`200 ${DEFAULT.accountId}`);
    } finally {
      await echo.close();
    }
  });

  test.each(['pfx', 'pem'])('with the certificate (%s) in its agent, an app reaches v1 through the tunnel of an https:// sandbox', async (k) => {
    const res = await run(process.execPath, ['--import', REGISTER, client, certs, kind(k), 'https://api.pague.dev/v1/account'], env);
    expect(res.out).toMatch(/^401 /); // the v1 face's own answer to a call without its API key
    expect(res.out).toContain('"statusCode":401');
  });

  // The proxy's TLS asks API Pix names for a client certificate (src/proxy/index.ts), so the one in the app's agent
  // reaches /api-pix/v2 through the hook's tunnel.
  test.each(['pfx', 'pem'])('with the certificate (%s) in its agent, an app lists cobs at https://pix.bank.example/v2/cob', async (k) => {
    const token = await own('POST', '/api-pix/oauth/token', { authorization: `Basic ${Buffer.from(`${DEFAULT.full.clientId}:${DEFAULT.full.clientSecret}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' }, 'grant_type=client_credentials');
    const list = 'https://pix.bank.example/v2/cob?inicio=2026-01-01T00:00:00Z&fim=2030-01-01T00:00:00Z';
    const res = await run(process.execPath, ['--import', REGISTER, client, certs, kind(k), list, token.body.access_token], env);
    expect(res.out).toMatch(/^200 /);
  });
});
