// The API Pix SDKs PSPs publish on npm (Efí's sdk-node-apis-efi and sdk-typescript-apis-efi, Gerencianet's
// gn-api-sdk-node; axios inside each), unmodified, configured as their users configure them (sandbox mode, which
// hard-codes the PSP's sandbox host, and the certificate), reach the sandbox through each door `pix-sandbox env` opens
// for a Node app: the proxy (HTTPS_PROXY: axios tunnels with CONNECT and carries the agent's certificate into the
// tunnel's TLS) and the register hook (NODE_OPTIONS: the hook opens the tunnel under the SDK's own https.Agent). Under
// --https --mtls the proxy's TLS asks for the certificate and checks it, so the SDK's .p12 (or PEM pair) is what lets
// it in. Each app runs in its own process with nothing but the variables `env` prints (test/fixtures/*-app/app.cjs and
// the credentials.cjs and pix-sdk-calls.cjs they share name nothing of pix-sandbox); the PSP's sandbox host is a
// --service-host of the API Pix face.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, setGlobalDispatcher } from 'undici';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/app';
import type { Face } from '../../src/proxy/hosts';
import { loadOrCreateCa } from '../../src/tls';
import { CLI } from '../foundation/process';
import { DEFAULT } from '../helpers/harness';
import { KEYS } from '../helpers/api-pix';

type Form = 'a .p12 file' | 'PEM files (pemKey)' | 'a .p12 in base64 (cert_base64)';

interface Sdk {
  name: string;
  /** The fixture app under test/fixtures/ that uses it. */
  app: string;
  /** The host its sandbox mode calls. */
  host: string;
  /** The certificate forms it reads. */
  forms: Form[];
}

const ALL_FORMS: Form[] = ['a .p12 file', 'PEM files (pemKey)', 'a .p12 in base64 (cert_base64)'];
const SDKS: Sdk[] = [
  { name: "Efí's sdk-node-apis-efi", app: 'efi-app', host: 'pix-h.api.efipay.com.br', forms: ALL_FORMS },
  { name: "Efí's sdk-typescript-apis-efi", app: 'efi-typescript-app', host: 'pix-h.api.efipay.com.br', forms: ALL_FORMS },
  // It reads the certificate only from a file (no cert_base64).
  { name: "Gerencianet's gn-api-sdk-node", app: 'gerencianet-app', host: 'api-pix-h.gerencianet.com.br', forms: ['a .p12 file', 'PEM files (pemKey)'] },
];
const home = mkdtempSync(join(tmpdir(), 'pix-sandbox-sdks-'));
const sandboxes: Record<'plain' | 'mtls', { sb: Sandbox; url: string; env: Record<string, string> }> = {} as never;

const run = (cmd: string, args: string[], env: Record<string, string | undefined>): Promise<{ code: number; stdout: string; stderr: string }> =>
  new Promise((resolve) =>
    execFile(cmd, args, { env, timeout: 30_000 }, (err, stdout, stderr) => resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr })),
  );

beforeAll(async () => {
  const local = await loadOrCreateCa(home);
  // This process's fetch (the control calls) trusts the sandbox's CA too.
  setGlobalDispatcher(new Agent({ connect: { ca: local.cert } }));
  const serviceHosts: Record<string, Face> = { 'api.pague.dev': 'v1', 'api-gateway.pague.dev': 'v2', ...Object.fromEntries(SDKS.map((sdk) => [sdk.host, 'api-pix'])) };
  for (const [kind, tls] of [['plain', {}], ['mtls', { https: true, mtls: true }]] as const) {
    const sb = await createSandbox({ ...tls, home, serviceHosts, log: () => {} });
    const url = await sb.listen({ port: 0 });
    // What a user's shell gets from `eval "$(pix-sandbox env)"`, as JSON.
    const printed = await run(process.execPath, [CLI, 'env', '--format', 'json', '--url', url], { PATH: process.env.PATH, HOME: process.env.HOME, PIX_SANDBOX_HOME: home });
    expect(printed.code, printed.stderr).toBe(0);
    sandboxes[kind] = { sb, url, env: JSON.parse(printed.stdout) };
  }
}, 60_000);
afterAll(async () => {
  for (const { sb } of Object.values(sandboxes)) await sb.close();
  rmSync(home, { recursive: true, force: true });
});

type Door = 'proxy' | 'register hook';
const PROXY_VARIABLES = ['HTTPS_PROXY', 'HTTP_PROXY', 'https_proxy', 'http_proxy'];

/** What `env` prints, for one door: the proxy without NODE_OPTIONS, or the hook without the proxy variables. */
function doorEnv(printed: Record<string, string>, door: Door): Record<string, string> {
  const drop = door === 'proxy' ? ['NODE_OPTIONS'] : PROXY_VARIABLES;
  return Object.fromEntries(Object.entries(printed).filter(([name]) => !drop.includes(name)));
}

interface Certificate {
  commonName: string;
  certificate: string;
  key: string;
  p12: string;
}

/** A certificate of `accountId` from the control API, with the empty passphrase each SDK opens its .p12 with. */
async function issue(url: string, accountId: string): Promise<Certificate> {
  const res = await fetch(`${url}/_sandbox/accounts/${accountId}/client-certificates`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ passphrase: '' }) });
  expect(res.status).toBe(201);
  return (await res.json()) as Certificate;
}

/** The SDK's certificate options for `form`, as its users set them (files in the home). */
function certificateConfig(cert: Certificate, form: Form): Record<string, string> {
  const file = (name: string, content: string | Buffer) => {
    const path = join(home, `${cert.commonName}-${Math.random().toString(36).slice(2)}-${name}`);
    writeFileSync(path, content);
    return path;
  };
  const p12 = Buffer.from(cert.p12, 'base64');
  if (form === 'a .p12 file') return { CERTIFICATE: file('client.p12', p12) };
  if (form === 'PEM files (pemKey)') return { CERTIFICATE: file('client.pem', cert.certificate), PEM_KEY: file('client-key.pem', cert.key) };
  return { CERTIFICATE: cert.p12, CERT_BASE64: 'true' };
}

/** The app's answers, run with the variables `env` printed for `door` and its certificate configuration. */
async function runApp(sdk: Sdk, kind: 'plain' | 'mtls', door: Door, certificate: Record<string, string>): Promise<any> {
  const env = { PATH: process.env.PATH, ...doorEnv(sandboxes[kind].env, door), CLIENT_ID: DEFAULT.full.clientId, CLIENT_SECRET: DEFAULT.full.clientSecret, PIX_KEY: KEYS.evp, ...certificate };
  const res = await run(process.execPath, [new URL(`../fixtures/${sdk.app}/app.cjs`, import.meta.url).pathname], env);
  expect(res.code, res.stderr).toBe(0);
  return JSON.parse(res.stdout);
}

function expectServed(out: any) {
  expect(out.error).toBeUndefined();
  expect(out.create).toMatchObject({ status: 'ATIVA', txid: expect.any(String) });
  expect(out.detail).toEqual({ status: 'ATIVA', txid: out.create.txid, original: '12.34' });
  expect(out.list.txids).toContain(out.create.txid);
  expect(out.qrcode).toEqual({ ok: true });
}

describe.each(SDKS.flatMap((sdk) => (['proxy', 'register hook'] as const).map((door) => ({ sdk, door }))))('$sdk.name through the $door', ({ sdk, door }) => {
  test("on an http:// sandbox (no client certificate asked), with the account's .p12 it takes a token, creates a cob, reads it, lists it and gets its QR", async () => {
    expectServed(await runApp(sdk, 'plain', door, certificateConfig(await issue(sandboxes.plain.url, DEFAULT.accountId), 'a .p12 file')));
  });

  test.each(sdk.forms)("under --https --mtls, with the account's certificate as %s it is served", async (form) => {
    expectServed(await runApp(sdk, 'mtls', door, certificateConfig(await issue(sandboxes.mtls.url, DEFAULT.accountId), form)));
  });

  test("under --https --mtls, with another account's .p12 the calls are refused with the 401 naming it", async () => {
    const other = await fetch(`${sandboxes.mtls.url}/_sandbox/accounts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Outra' }) });
    const { id } = (await other.json()) as { id: string };
    const out = await runApp(sdk, 'mtls', door, certificateConfig(await issue(sandboxes.mtls.url, id), 'a .p12 file'));
    expect(out.error).toContain('NaoAutenticado');
    expect(out.error).toContain(id);
    expect(out.create).toBeUndefined();
  });
});
