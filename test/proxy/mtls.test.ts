// --https --mtls through each door an API Pix client uses, on real ports: the sandbox's own port, a CONNECT tunnel of
// the proxy to an API Pix name, and the service port (curl's --resolve plays the network alias; nothing is looked up).
// Each asks for a client certificate and checks it against the local CA, so the face's guard answers the same: the
// account's certificate (PEM or the .p12 the control API hands out) is served, and none, another account's, an expired
// one, one of another CA, a self-signed one or a server certificate of the local CA is a 401 naming what to send, with
// nothing made.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSecureContext } from 'node:tls';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/app';
import { createCaMaterial, issueClientCertificate, issueServerCertificate, loadOrCreateCa } from '../../src/tls';
import { DEFAULT } from '../helpers/harness';
import { basic, cobBody } from '../helpers/api-pix';

const NAME = 'pix.mybank.example';
const home = mkdtempSync(join(tmpdir(), 'pix-sandbox-proxy-mtls-'));
const files = (name: string) => join(home, name);
let sb: Sandbox;
let own: URL;
let service: URL;
let token: string;

interface Answer {
  status: number;
  body: any;
  err: string;
}

type Door = 'own port' | 'proxy' | 'service port';

/** curl through `door`, trusting the sandbox's CA, with the client certificate files `cert` gives. */
function curl(door: Door, method: string, path: string, cert: string[] = [], body?: unknown): Promise<Answer> {
  const target =
    door === 'own port' ? [`${own.origin}/api-pix${path}`] : door === 'proxy' ? ['--proxy', own.origin.replace('https:', 'http:'), `https://${NAME}${path}`] : ['--resolve', `${NAME}:${service.port}:127.0.0.1`, `https://${NAME}:${service.port}${path}`];
  const args = ['-sS', '-X', method, '--cacert', files('ca.pem'), '-H', `authorization: Bearer ${token}`, '-w', '\n%{http_code}', ...cert, ...(body ? ['-H', 'content-type: application/json', '--data', JSON.stringify(body)] : []), ...target];
  return new Promise((resolve) =>
    execFile('curl', args, { env: { PATH: process.env.PATH }, timeout: 20_000 }, (_err, stdout, stderr) => {
      const lines = stdout.split('\n');
      const status = Number(lines.pop());
      const text = lines.join('\n');
      resolve({ status, body: text ? JSON.parse(text) : undefined, err: stderr });
    }),
  );
}

async function control(path: string, body?: unknown) {
  const res = await fetch(`${own.origin}/_sandbox${path}`, { method: 'POST', headers: body ? { 'content-type': 'application/json' } : {}, body: body ? JSON.stringify(body) : undefined });
  return { status: res.status, body: (await res.json()) as any };
}

/** PEM files for curl's --cert/--key. */
function pemFiles(label: string, pair: { cert: string; key: string }) {
  writeFileSync(files(`${label}.pem`), pair.cert);
  writeFileSync(files(`${label}-key.pem`), pair.key);
  return ['--cert', files(`${label}.pem`), '--key', files(`${label}-key.pem`)];
}

const certs: Record<string, string[]> = {};

beforeAll(async () => {
  // The CA made first, so this process's fetch can trust it for the control calls.
  const ca = await loadOrCreateCa(home);
  const { Agent, setGlobalDispatcher } = await import('undici');
  setGlobalDispatcher(new Agent({ connect: { ca: ca.cert } }));
  sb = await createSandbox({ https: true, mtls: true, home, servicePort: 0, serviceHosts: { 'api.pague.dev': 'v1', 'api-gateway.pague.dev': 'v2', [NAME]: 'api-pix' }, log: () => {} });
  own = new URL(await sb.listen({ port: 0 }));
  service = new URL(sb.serviceUrl!);
  const res = await fetch(`${own.origin}/api-pix/oauth/token`, {
    method: 'POST',
    headers: { authorization: basic(DEFAULT.full.clientId, DEFAULT.full.clientSecret), 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials',
  });
  token = ((await res.json()) as { access_token: string }).access_token;

  const mine = await control(`/accounts/${DEFAULT.accountId}/client-certificates`, { passphrase: 'segredo' });
  expect(mine.status, JSON.stringify(mine.body)).toBe(201);
  certs.pem = pemFiles('mine', { cert: mine.body.certificate, key: mine.body.key });
  writeFileSync(files('mine.p12'), Buffer.from(mine.body.p12, 'base64'));
  certs.p12 = ['--cert-type', 'P12', '--cert', `${files('mine.p12')}:segredo`];
  const other = await control('/accounts', { name: 'Outra' });
  const theirs = await control(`/accounts/${other.body.id}/client-certificates`);
  certs.other = pemFiles('other', { cert: theirs.body.certificate, key: theirs.body.key });
  certs.otherId = [other.body.id];
  certs.expired = pemFiles('expired', await issueClientCertificate(ca, { commonName: DEFAULT.accountId, days: -1 }));
  certs.foreign = pemFiles('foreign', await issueClientCertificate(await createCaMaterial(), { commonName: DEFAULT.accountId }));
  // Signed by the local CA, but for a server (extended key usage serverAuth only), as a leaf a proxy hands out.
  certs.server = pemFiles('server', await issueServerCertificate(ca, [DEFAULT.accountId.toLowerCase()]));
  const selfSigned = await createCaMaterial({ commonName: DEFAULT.accountId });
  certs.selfSigned = pemFiles('self-signed', selfSigned);
});
afterAll(async () => {
  await sb?.close();
  rmSync(home, { recursive: true, force: true });
});

describe.each<Door>(['own port', 'proxy', 'service port'])('through the %s', (door) => {
  test.each([
    ["the account's certificate as PEM", 'pem'],
    ['the same certificate as the .p12 the control API handed out', 'p12'],
  ])('%s is served', async (_label, which) => {
    const txid = `mtls${door.replace(/ /g, '')}${which}00000000000000`.slice(0, 30);
    const put = await curl(door, 'PUT', `/v2/cob/${txid}`, certs[which], cobBody());
    expect(put.status, JSON.stringify(put.body) + put.err).toBe(201);
    const got = await curl(door, 'GET', `/v2/cob/${txid}`, certs[which]);
    expect(got.status, JSON.stringify(got.body)).toBe(200);
    expect(got.body.txid).toBe(txid);
  });

  test.each([
    ['no certificate', 'none', 'presented none'],
    ["another account's certificate", 'other', 'was issued to account'],
    ['an expired certificate of the local CA', 'expired', 'expired on'],
    ['a certificate of another CA', 'foreign', "is not signed by this sandbox's local CA"],
    ['a self-signed certificate', 'selfSigned', "is not signed by this sandbox's local CA"],
    ['a server certificate of the local CA', 'server', 'is not for client authentication'],
  ])('%s is a 401 naming what to send, and nothing is made', async (_label, which, says) => {
    const txid = `refused${door.replace(/ /g, '')}${which}00000000000000`.slice(0, 30);
    const put = await curl(door, 'PUT', `/v2/cob/${txid}`, certs[which] ?? [], cobBody());
    expect(put.status, JSON.stringify(put.body) + put.err).toBe(401);
    expect(put.body.type).toBe('https://pix.bcb.gov.br/api/v2/error/NaoAutenticado');
    expect(put.body.detail).toContain(says);
    expect(put.body.detail).toContain('/client-certificates');
    if (which === 'other') expect(put.body.detail).toContain(certs.otherId![0]);
    const got = await curl(door, 'GET', `/v2/cob/${txid}`, certs.pem);
    expect(got.status).toBe(404);
  });
});

test('the .p12 loads in Node with its passphrase; without one sent, a passphrase is made and returned; an empty one makes a .p12 without one; a number is a 400', async () => {
  const made = await control(`/accounts/${DEFAULT.accountId}/client-certificates`);
  expect(made.status).toBe(201);
  expect(made.body.passphrase).toMatch(/^[\w-]{16}$/);
  expect(() => createSecureContext({ pfx: Buffer.from(made.body.p12, 'base64'), passphrase: made.body.passphrase })).not.toThrow();
  expect(() => createSecureContext({ pfx: Buffer.from(made.body.p12, 'base64'), passphrase: 'wrong' })).toThrow();
  const empty = await control(`/accounts/${DEFAULT.accountId}/client-certificates`, { passphrase: '' });
  expect(empty.body.passphrase).toBe('');
  expect(() => createSecureContext({ pfx: Buffer.from(empty.body.p12, 'base64'), passphrase: '' })).not.toThrow();
  const bad = await control(`/accounts/${DEFAULT.accountId}/client-certificates`, { passphrase: 1234 });
  expect(bad.status).toBe(400);
  expect(JSON.stringify(bad.body)).toContain('passphrase');
});
