// src/tls: the local CA in PIX_SANDBOX_HOME, leaves signed by it, a brought --cert/--key pair checked before listening,
// and client certificates accepted by a server that asks for them (what mutual TLS builds on).
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { request as httpsRequest, createServer, type ServerOptions } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { afterEach, describe, expect, test } from 'vitest';
import {
  CA_FILE,
  CA_KEY_FILE,
  createCaMaterial,
  issueClientCertificate,
  issueServerCertificate,
  leafNames,
  loadKeyPair,
  loadOrCreateCa,
  prepareServerTls,
  serverTlsOptions,
  TlsSetupError,
} from '../../src/tls';

const dirs: string[] = [];
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tempDir() {
  const dir = mkdtempSync(join(tmpdir(), 'pix-sandbox-tls-'));
  dirs.push(dir);
  return dir;
}

/** An https server with `options` answering the client certificate's CN (or 'none'); resolves its port. */
async function serve(options: ServerOptions): Promise<number> {
  const server = createServer(options, (req, res) => {
    const socket = req.socket as TLSSocket;
    res.end(JSON.stringify({ authorized: socket.authorized, cn: socket.getPeerCertificate().subject?.CN ?? 'none' }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.push(() => new Promise((r) => server.close(() => r())));
  return (server.address() as AddressInfo).port;
}

function get(port: number, opts: { ca: string; host?: string; cert?: string; key?: string }): Promise<{ status: number; body: string } | { error: string }> {
  return new Promise((resolve) => {
    const req = httpsRequest({ host: opts.host ?? '127.0.0.1', port, path: '/', ca: opts.ca, cert: opts.cert, key: opts.key }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message }));
    req.end();
  });
}

describe('the local CA', () => {
  test('is made on first use as ca.pem and ca-key.pem (key readable by its owner only), and loaded as it is after that', async () => {
    const home = join(tempDir(), 'home');
    const first = await loadOrCreateCa(home);
    expect(first.created).toBe(true);
    expect(first.certPath).toBe(join(home, CA_FILE));
    expect(first.keyPath).toBe(join(home, CA_KEY_FILE));
    expect(readFileSync(first.certPath, 'utf8')).toBe(first.cert);
    expect(statSync(first.keyPath).mode & 0o077).toBe(0);
    const ca = new X509Certificate(first.cert);
    expect(ca.ca).toBe(true);
    expect(ca.checkIssued(ca)).toBe(true);
    const second = await loadOrCreateCa(home);
    expect(second.created).toBe(false);
    expect(second.cert).toBe(first.cert);
    expect(second.key).toBe(first.key);
  });

  test('started by several callers at once, one CA is made and all of them get it', async () => {
    const home = join(tempDir(), 'home');
    const all = await Promise.all([1, 2, 3, 4].map(() => loadOrCreateCa(home)));
    expect(new Set(all.map((ca) => ca.cert)).size).toBe(1);
    expect(all.filter((ca) => ca.created)).toHaveLength(1);
  });

  test('a home that cannot be written stops with a message naming it and PIX_SANDBOX_HOME', async () => {
    const file = join(tempDir(), 'a-file');
    writeFileSync(file, 'not a directory');
    const home = join(file, 'home');
    await expect(loadOrCreateCa(home)).rejects.toThrow(TlsSetupError);
    await expect(loadOrCreateCa(home)).rejects.toThrow(new RegExp(`Cannot make the local CA in ${home} .*Point PIX_SANDBOX_HOME at a directory you can write`));
  });

  test('a CA key that does not belong to ca.pem stops with a message naming both files', async () => {
    const home = tempDir();
    const ca = await loadOrCreateCa(home);
    writeFileSync(ca.keyPath, (await createCaMaterial()).key);
    await expect(loadOrCreateCa(home)).rejects.toThrow(`The local CA key ${ca.keyPath} does not belong to ${ca.certPath}. Delete both`);
  });
});

describe('a leaf of the local CA', () => {
  test('names localhost, 127.0.0.1, ::1, the public host, a specific listen address and each --tls-name', () => {
    expect(leafNames({ publicHost: 'pix-sandbox.test', listenHost: '0.0.0.0', names: ['sandbox.local', '192.168.0.10'] })).toEqual([
      'localhost',
      '127.0.0.1',
      '::1',
      'pix-sandbox.test',
      'sandbox.local',
      '192.168.0.10',
    ]);
    expect(leafNames({ publicHost: '10.0.0.5:4747/base', listenHost: '10.0.0.5' })).toEqual(['localhost', '127.0.0.1', '::1', '10.0.0.5']);
  });

  test.each([['not a name!'], ['-leading.dash'], ['a..b']])('--tls-name %j is refused with what to give instead', (name) => {
    expect(() => leafNames({ names: [name] })).toThrow(`--tls-name '${name}' is neither a DNS name nor an IP address. Give a host name`);
  });

  test('is trusted by a client that trusts the CA, for 127.0.0.1 and localhost, and refused by one that does not', async () => {
    const home = tempDir();
    const tls = await prepareServerTls({ home, publicHost: 'pix-sandbox.test' });
    expect(tls.ca?.certPath).toBe(join(home, CA_FILE));
    const leaf = new X509Certificate(tls.cert);
    expect(leaf.checkIssued(new X509Certificate(tls.ca!.cert))).toBe(true);
    expect(leaf.subjectAltName).toBe('DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1, DNS:pix-sandbox.test');
    const port = await serve(serverTlsOptions(tls));
    for (const host of ['127.0.0.1', 'localhost']) expect(await get(port, { ca: tls.ca!.cert, host })).toEqual({ status: 200, body: '{"authorized":false,"cn":"none"}' });
    const other = await createCaMaterial();
    expect(await get(port, { ca: other.cert })).toEqual({ error: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' });
  });
});

describe('a brought certificate (--cert/--key)', () => {
  type Files = Awaited<ReturnType<typeof files>>;
  async function files() {
    const dir = tempDir();
    const ca = await createCaMaterial();
    const good = await issueServerCertificate(ca, ['localhost']);
    const expired = await issueServerCertificate(ca, ['localhost'], { days: -1 });
    const write = (name: string, text: string) => (writeFileSync(join(dir, name), text), join(dir, name));
    return {
      cert: write('cert.pem', good.cert),
      key: write('key.pem', good.key),
      otherKey: write('other-key.pem', (await createCaMaterial()).key),
      expired: write('expired.pem', expired.cert),
      expiredKey: write('expired-key.pem', expired.key),
      missing: join(dir, 'missing.pem'),
      garbage: write('garbage.pem', 'hello'),
    };
  }

  test('a good pair is used as it is, with no CA made', async () => {
    const f = await files();
    const home = join(tempDir(), 'home');
    const tls = await prepareServerTls({ home, certFile: f.cert, keyFile: f.key });
    expect(tls.cert).toBe(readFileSync(f.cert, 'utf8'));
    expect(tls.ca).toBeUndefined();
    expect(() => statSync(home)).toThrow();
  });

  test.each([
    ['--cert without --key', (f: Files) => ({ certFile: f.cert }), (f: Files) => `--cert ${f.cert} was given without --key. Give both --cert FILE and --key FILE`],
    ['--key without --cert', (f: Files) => ({ keyFile: f.key }), (f: Files) => `--key ${f.key} was given without --cert.`],
    ['an unreadable certificate', (f: Files) => ({ certFile: f.missing, keyFile: f.key }), (f: Files) => `Cannot read the certificate ${f.missing} (`],
    ['an unreadable key', (f: Files) => ({ certFile: f.cert, keyFile: f.missing }), (f: Files) => `Cannot read the key ${f.missing} (`],
    ['a certificate that is not PEM', (f: Files) => ({ certFile: f.garbage, keyFile: f.key }), (f: Files) => `${f.garbage} is not a PEM certificate`],
    ['a key that is not PEM', (f: Files) => ({ certFile: f.cert, keyFile: f.garbage }), (f: Files) => `${f.garbage} is not a PEM private key`],
    ['a mismatched pair', (f: Files) => ({ certFile: f.cert, keyFile: f.otherKey }), (f: Files) => `The key ${f.otherKey} does not belong to the certificate ${f.cert}. Give --key the private key`],
    ['an expired certificate', (f: Files) => ({ certFile: f.expired, keyFile: f.expiredKey }), (f: Files) => `The certificate ${f.expired} expired on `],
  ] as const)('%s stops with a message naming the file and what to do', async (_, settings, message) => {
    const f = await files();
    const attempt = prepareServerTls({ home: tempDir(), ...settings(f) });
    await expect(attempt).rejects.toThrow(TlsSetupError);
    await expect(attempt).rejects.toThrow(message(f));
  });

  test('loadKeyPair judges expiry on real time: the same pair is refused a day after its end', async () => {
    const f = await files();
    const notAfter = Date.parse(new X509Certificate(readFileSync(f.cert)).validTo);
    expect(loadKeyPair(f.cert, f.key).cert).toContain('BEGIN CERTIFICATE');
    expect(() => loadKeyPair(f.cert, f.key, notAfter + 86_400_000)).toThrow(`The certificate ${f.cert} expired on`);
  });
});

describe('client certificates (for mutual TLS)', () => {
  test('one issued for an account is accepted by a server that requires client certificates of the CA; none, or one of another CA, is refused', async () => {
    const home = tempDir();
    const tls = await prepareServerTls({ home });
    const ca = tls.ca!;
    const client = await issueClientCertificate(ca, { commonName: 'acc_123' });
    const x509 = new X509Certificate(client.cert);
    expect(x509.subject).toBe('CN=acc_123');
    expect(x509.checkIssued(new X509Certificate(ca.cert))).toBe(true);
    const port = await serve(serverTlsOptions(tls, { clientCa: ca.cert, clientCertificates: 'require' }));
    expect(await get(port, { ca: ca.cert, ...client })).toEqual({ status: 200, body: '{"authorized":true,"cn":"acc_123"}' });
    expect(await get(port, { ca: ca.cert })).toHaveProperty('error');
    const stranger = await issueClientCertificate(await createCaMaterial(), { commonName: 'acc_123' });
    expect(await get(port, { ca: ca.cert, ...stranger })).toHaveProperty('error');
  });

  test("'request' asks for one but lets the app decide: authorized with the CA's certificate, not without", async () => {
    const tls = await prepareServerTls({ home: tempDir() });
    const client = await issueClientCertificate(tls.ca!, { commonName: 'acc_9' });
    const port = await serve(serverTlsOptions(tls, { clientCa: tls.ca!.cert, clientCertificates: 'request' }));
    expect(await get(port, { ca: tls.ca!.cert, ...client })).toEqual({ status: 200, body: '{"authorized":true,"cn":"acc_9"}' });
    expect(await get(port, { ca: tls.ca!.cert })).toEqual({ status: 200, body: '{"authorized":false,"cn":"none"}' });
  });

  test('asking for client certificates without saying which CA signs them is a programming error named as such', () => {
    expect(() => serverTlsOptions({ cert: 'c', key: 'k' }, { clientCertificates: 'require' })).toThrow("clientCertificates 'require' needs clientCa");
  });
});
