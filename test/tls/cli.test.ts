// `pix-sandbox --https` as a user runs it (sandbox.md 8): the built CLI on a real port, a CA made on first use in
// PIX_SANDBOX_HOME, the banner's trust recipes, plain HTTP answered instead of hanging, `pix-sandbox ca`, and the bad
// inputs that stop the start with a message naming the file.
import { X509Certificate } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import { connect } from 'node:tls';
import { afterEach, expect, test } from 'vitest';
import { createCaMaterial, issueServerCertificate } from '../../src/tls';
import { killLeftovers, runCli, startCli, tempDir } from '../foundation/process';

const cleanups: (() => void)[] = [];
afterEach(() => {
  killLeftovers();
  for (const c of cleanups.splice(0)) c();
});
function home() {
  const tmp = tempDir();
  cleanups.push(tmp.cleanup);
  return { dir: join(tmp.dir, 'home'), file: tmp.file };
}

function getJson(url: string, ca?: string): Promise<{ status: number; body: any } | { error: string }> {
  return new Promise((resolve) => {
    const req = (url.startsWith('https:') ? httpsRequest : httpRequest)(url, { ca }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message }));
    req.end();
  });
}

test('--https makes the local CA in PIX_SANDBOX_HOME, serves TLS trusted through it, prints how to trust it and never the key', async () => {
  const h = home();
  const cli = await startCli(['--https', '--port', '0'], { PIX_SANDBOX_HOME: h.dir });
  const caPath = join(h.dir, 'ca.pem');
  const ca = readFileSync(caPath, 'utf8');
  expect(cli.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
  const out = cli.stdout();
  expect(out).toContain(`  TLS         certificate signed by the local CA ${caPath}; trust that file:\n`);
  // One line per client, each naming the CA file in that client's own terms.
  const trust = (label: string) => out.split('\n').find((l) => l.trimStart().startsWith(`${label} `)) ?? `(no ${label} line)`;
  expect(trust('Node')).toContain(`NODE_EXTRA_CA_CERTS=${caPath}`);
  expect(trust('curl')).toContain(`--cacert ${caPath}`);
  expect(trust('Python')).toContain(`REQUESTS_CA_BUNDLE=${caPath}`);
  expect(trust('Python')).toContain(`SSL_CERT_FILE=${caPath}`);
  // PHP and Java read no variable for it: env writes what they need (an ini directory, a trust store).
  expect(trust('PHP')).toContain('eval "$(npx pix-sandbox env)": its PHP_INI_SCAN_DIR ini sets curl.cainfo');
  expect(trust('Java')).toContain('eval "$(npx pix-sandbox env)": its JAVA_TOOL_OPTIONS name a trust store');
  const key = readFileSync(join(h.dir, 'ca-key.pem'), 'utf8');
  const keyBody = key.split('\n')[1]!;
  expect(out + cli.stderr()).not.toContain(keyBody);
  expect(out + cli.stderr()).not.toContain('ca-key.pem');

  const health = await getJson(`${cli.url}/_sandbox/health`, ca);
  expect(health).toMatchObject({ status: 200, body: { status: 'ok' } });
  expect(await getJson(`https://localhost:${cli.port}/_sandbox/health`, ca)).toMatchObject({ status: 200 });
  expect(await getJson(`${cli.url}/_sandbox/health`)).toEqual({ error: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' });
  expect(await cli.stop(), cli.stderr()).toBe(0);
});

test('a plain-HTTP request to the HTTPS port gets a 400 that says to use https, and the connection closes', async () => {
  const h = home();
  const cli = await startCli(['--https', '--port', '0'], { PIX_SANDBOX_HOME: h.dir });
  const res = await getJson(`http://127.0.0.1:${cli.port}/v2/pix`);
  expect(res).toMatchObject({ status: 400, body: { error: 'BadRequest', details: { code: 'HTTPS_REQUIRED' } } });
  expect((res as { body: { message: string } }).body.message).toContain(`This port speaks HTTPS only: send the request to https://localhost:${cli.port}`);
  // The listener still serves TLS afterwards.
  expect(await getJson(`${cli.url}/_sandbox/health`, readFileSync(join(h.dir, 'ca.pem'), 'utf8'))).toMatchObject({ status: 200 });
  expect(await cli.stop(), cli.stderr()).toBe(0);
});

test('SANDBOX_HTTPS=1 and SANDBOX_TLS_NAMES do what --https and --tls-name do: the leaf names each extra name', async () => {
  const h = home();
  const cli = await startCli(['--port', '0', '--tls-name', 'sandbox.internal'], { PIX_SANDBOX_HOME: h.dir, SANDBOX_HTTPS: '1' });
  const peer = await new Promise<string>((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port: cli.port, ca: readFileSync(join(h.dir, 'ca.pem')), servername: 'sandbox.internal' }, () => {
      resolve(socket.getPeerX509Certificate()!.subjectAltName ?? '');
      socket.end();
    });
    socket.on('error', reject);
  });
  expect(peer).toBe('DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1, DNS:pix-sandbox.test, DNS:sandbox.internal');
  expect(await cli.stop(), cli.stderr()).toBe(0);
  const env = await startCli(['--port', '0'], { PIX_SANDBOX_HOME: h.dir, SANDBOX_HTTPS: '1', SANDBOX_TLS_NAMES: 'a.test, 10.1.2.3' });
  const leaf = await new Promise<X509Certificate>((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port: env.port, ca: readFileSync(join(h.dir, 'ca.pem')) }, () => {
      resolve(socket.getPeerX509Certificate()!);
      socket.end();
    });
    socket.on('error', reject);
  });
  expect(leaf.subjectAltName).toContain('DNS:a.test, IP Address:10.1.2.3');
  expect(await env.stop(), env.stderr()).toBe(0);
});

test('pix-sandbox ca prints the path of ca.pem, making the CA the first time and keeping it after', async () => {
  const h = home();
  const first = await runCli(['ca'], { PIX_SANDBOX_HOME: h.dir });
  expect(first.code, first.stderr).toBe(0);
  expect(first.stdout).toBe(`${join(h.dir, 'ca.pem')}\n`);
  const pem = readFileSync(join(h.dir, 'ca.pem'), 'utf8');
  expect(new X509Certificate(pem).ca).toBe(true);
  const second = await runCli(['ca'], { PIX_SANDBOX_HOME: h.dir });
  expect(second.stdout).toBe(first.stdout);
  expect(readFileSync(join(h.dir, 'ca.pem'), 'utf8')).toBe(pem);
});

test('a brought --cert/--key pair is served as it is', async () => {
  const h = home();
  const ca = await createCaMaterial();
  const leaf = await issueServerCertificate(ca, ['127.0.0.1']);
  writeFileSync(h.file('cert.pem'), leaf.cert);
  writeFileSync(h.file('key.pem'), leaf.key);
  const cli = await startCli(['--https', '--port', '0', '--cert', h.file('cert.pem'), '--key', h.file('key.pem')], { PIX_SANDBOX_HOME: h.dir });
  expect(cli.stdout()).toContain(`  TLS         certificate ${h.file('cert.pem')} (brought with --cert; clients trust its issuer)\n`);
  expect(await getJson(`${cli.url}/_sandbox/health`, ca.cert)).toMatchObject({ status: 200 });
  expect(await cli.stop(), cli.stderr()).toBe(0);
});

test.each([
  ['--cert without --key', async (f: (n: string) => string) => ['--cert', f('cert.pem')], (f: (n: string) => string) => `--cert ${f('cert.pem')} was given without --key.`],
  ['an unreadable key', async (f: (n: string) => string) => ['--cert', f('cert.pem'), '--key', f('nope.pem')], (f: (n: string) => string) => `Cannot read the key ${f('nope.pem')}`],
  ['a mismatched pair', async (f: (n: string) => string) => ['--cert', f('cert.pem'), '--key', f('other.pem')], (f: (n: string) => string) => `The key ${f('other.pem')} does not belong to the certificate ${f('cert.pem')}`],
  ['an expired certificate', async (f: (n: string) => string) => ['--cert', f('old.pem'), '--key', f('old-key.pem')], (f: (n: string) => string) => `The certificate ${f('old.pem')} expired on`],
])('%s stops the start (exit 1) with a message naming the file', async (_, args, message) => {
  const h = home();
  const ca = await createCaMaterial();
  const good = await issueServerCertificate(ca, ['localhost']);
  const old = await issueServerCertificate(ca, ['localhost'], { days: -1 });
  writeFileSync(h.file('cert.pem'), good.cert);
  writeFileSync(h.file('other.pem'), (await createCaMaterial()).key);
  writeFileSync(h.file('old.pem'), old.cert);
  writeFileSync(h.file('old-key.pem'), old.key);
  const res = await runCli(['--https', '--port', '0', ...(await args(h.file))], { PIX_SANDBOX_HOME: h.dir });
  expect(res.code, res.stdout + res.stderr).toBe(1);
  expect(res.stderr).toContain(`pix-sandbox could not start: ${message(h.file)}`);
  expect(res.stdout).not.toContain('listening');
});

test('a PIX_SANDBOX_HOME that cannot be written stops the start (exit 1), naming it and what to do', async () => {
  const h = home();
  writeFileSync(h.file('plain-file'), '');
  const bad = join(h.file('plain-file'), 'home');
  const res = await runCli(['--https', '--port', '0'], { PIX_SANDBOX_HOME: bad });
  expect(res.code, res.stdout + res.stderr).toBe(1);
  expect(res.stderr).toContain(`pix-sandbox could not start: Cannot make the local CA in ${bad} (`);
  expect(res.stderr).toContain('Point PIX_SANDBOX_HOME at a directory you can write, or bring your own certificate with --cert FILE --key FILE.');
});

test('--cert, --key or --tls-name without --https is refused (exit 2) with what to add', async () => {
  const res = await runCli(['--tls-name', 'x.test']);
  expect(res.code).toBe(2);
  expect(res.stderr).toContain('--cert, --key and --tls-name only apply with --https (SANDBOX_HTTPS=1): add --https.');
});
