// A PSP's own published API Pix SDK (Efí's sdk-node-apis-efi, axios inside), unmodified, configured as its users
// configure it (sandbox mode, which hard-codes https://pix-h.api.efipay.com.br, and a .p12 certificate opened with an
// empty passphrase), reaches the sandbox under --https --mtls through the proxy (HTTPS_PROXY): axios tunnels with
// CONNECT and carries the agent's pfx into the tunnel's TLS, which the proxy asks for and checks. The app runs in its
// own process with nothing but environment (test/fixtures/efi-app/app.cjs has no word of the sandbox).
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, setGlobalDispatcher } from 'undici';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/app';
import { loadOrCreateCa } from '../../src/tls';
import { DEFAULT } from '../helpers/harness';
import { KEYS } from '../helpers/api-pix';

const APP = new URL('../fixtures/efi-app/app.cjs', import.meta.url).pathname;
const home = mkdtempSync(join(tmpdir(), 'pix-sandbox-efi-'));
let sb: Sandbox;
let url: string;
let ca: string;

beforeAll(async () => {
  const local = await loadOrCreateCa(home);
  ca = local.certPath;
  // This process's fetch (the control calls) trusts the sandbox's CA too.
  setGlobalDispatcher(new Agent({ connect: { ca: local.cert } }));
  sb = await createSandbox({ https: true, mtls: true, home, serviceHosts: { 'api.pague.dev': 'v1', 'api-gateway.pague.dev': 'v2', 'pix-h.api.efipay.com.br': 'api-pix' }, log: () => {} });
  url = await sb.listen({ port: 0 });
});
afterAll(async () => {
  await sb?.close();
  rmSync(home, { recursive: true, force: true });
});

/** The app's answers, run with `p12` as its certificate and the proxy and CA in its environment. */
function runApp(p12: Buffer): Promise<any> {
  const file = join(home, `client-${Math.random().toString(36).slice(2)}.p12`);
  writeFileSync(file, p12);
  const env = {
    PATH: process.env.PATH,
    ...(process.env.NODE_PATH ? { NODE_PATH: process.env.NODE_PATH } : {}),
    HTTPS_PROXY: url.replace('https:', 'http:'),
    NODE_EXTRA_CA_CERTS: ca,
    CLIENT_ID: DEFAULT.full.clientId,
    CLIENT_SECRET: DEFAULT.full.clientSecret,
    CERT_P12: file,
    PIX_KEY: KEYS.evp,
  };
  return new Promise((resolve, reject) =>
    execFile(process.execPath, [APP], { env, timeout: 30_000 }, (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(JSON.parse(stdout)))),
  );
}

async function p12For(accountId: string): Promise<Buffer> {
  const res = await fetch(`${url}/_sandbox/accounts/${accountId}/client-certificates`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ passphrase: '' }) });
  expect(res.status).toBe(201);
  return Buffer.from(((await res.json()) as { p12: string }).p12, 'base64');
}

test("with the account's .p12 it takes a token, creates a cob, reads it back and lists it", async () => {
  const out = await runApp(await p12For(DEFAULT.accountId));
  expect(out.error).toBeUndefined();
  expect(out.create).toMatchObject({ status: 'ATIVA', txid: expect.any(String) });
  expect(out.detail).toEqual({ status: 'ATIVA', txid: out.create.txid, original: '12.34' });
  expect(out.list.txids).toContain(out.create.txid);
});

test("with another account's .p12 the calls are refused with the 401 naming it", async () => {
  const other = await fetch(`${url}/_sandbox/accounts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Outra' }) });
  const { id } = (await other.json()) as { id: string };
  const out = await runApp(await p12For(id));
  expect(out.error).toContain('NaoAutenticado');
  expect(out.error).toContain(id);
});
