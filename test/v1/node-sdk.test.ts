// The Node SDK example of docs/integrators.md (examples/sdk-node/run.mjs) runs against a sandbox on a real port: its
// fetch wrapper sends the SDK's hard-coded https://api.pague.dev/v1 to the sandbox, and every method answers the SDK's
// shapes.
// The official SDK is not on this machine's registry, so by default the example gets a stand-in module that sends
// exactly what the SDK's Pdev sends (X-API-Key and Content-Type headers, JSON bodies, query strings of the options,
// the hard-coded base); with PAGUE_SDK naming a build of the real SDK (pague-dev/sdk-node built with esbuild), the
// same test runs the real one.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { createSandbox } from '../../src/app';
import { startSandbox } from '../../src/testing';
import { NODE_SDK } from './sdk-shapes';

const root = resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'sdk-node-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// What the SDK's client does on the wire (facts of pague-dev/sdk-node 0.2.2, src/pdev.ts and common/), no SDK code.
const STAND_IN = `
const base = 'https://api.pague.dev/v1';
const query = (o) => { const p = new URLSearchParams(); for (const [k, v] of Object.entries(o ?? {})) if (v !== undefined && v !== null) p.set(k, String(v)); const s = p.toString(); return s ? '?' + s : ''; };
export class Pdev {
  constructor(key) { this.headers = { 'X-API-Key': key, 'Content-Type': 'application/json' };
    const res = (path) => ({ create: (b) => this.send('POST', path, b), list: (o) => this.send('GET', path + query(o)), get: (id) => this.send('GET', path + '/' + id) });
    this.customers = res('/customers'); this.projects = res('/projects'); this.charges = res('/charges'); this.pix = res('/pix'); this.transactions = res('/transactions'); }
  async send(method, path, body) {
    const r = await fetch(base + path, { method, headers: this.headers, body: body ? JSON.stringify(body) : undefined });
    return r.ok ? { data: await r.json(), error: null } : { data: null, error: JSON.parse(await r.text()) };
  }
}`;

test('the example of docs/integrators.md runs every method of the Node SDK against the sandbox, each answer of the SDK\'s shape', { timeout: 60_000 }, async () => {
  const sdk = process.env.PAGUE_SDK ?? join(dir, 'stand-in.mjs');
  if (!process.env.PAGUE_SDK) writeFileSync(sdk, STAND_IN);
  const sb = await createSandbox({ log: () => {} });
  const url = await sb.listen({ port: 0 });
  try {
    const out = await new Promise<string>((ok, fail) =>
      execFile(process.execPath, [join(root, 'examples/sdk-node/run.mjs')], { env: { ...process.env, SANDBOX_URL: url, PAGUE_SDK: sdk }, timeout: 30_000 }, (err, stdout, stderr) => (err ? fail(new Error(`${err.message}\n${stderr}`)) : ok(stdout))),
    );
    const results = JSON.parse(out) as Record<string, { data: any }>;
    const shapes: Record<string, { required: readonly string[] }> = {
      'customers.create': NODE_SDK.Customer,
      'customers.list': NODE_SDK.PaginatedResponse,
      'projects.create': NODE_SDK.Project,
      'projects.list': NODE_SDK.PaginatedResponse,
      'pix.create': NODE_SDK.PixCharge,
      'transactions.get': NODE_SDK.Transaction,
      'charges.create': NODE_SDK.Charge,
      'charges.list': NODE_SDK.PaginatedResponse,
      'charges.get': NODE_SDK.Charge,
    };
    expect(Object.keys(results)).toEqual(Object.keys(shapes));
    for (const [method, shape] of Object.entries(shapes)) expect(shape.required.filter((k) => !(k in results[method]!.data)), method).toEqual([]);
    expect(results['charges.get']!.data.url).toBe(`${url}/c/${results['charges.get']!.data.slug}`);
  } finally {
    await sb.close();
  }
});

test('in a test process, intercept({ v1 }) answers the SDK\'s hard-coded base with the sandbox\'s v1 routes, no port and no fetch wrapper', { timeout: 30_000 }, async () => {
  const sdk = process.env.PAGUE_SDK ?? join(dir, 'stand-in-intercept.mjs');
  if (!process.env.PAGUE_SDK) writeFileSync(sdk, STAND_IN);
  const sandbox = await startSandbox();
  const interception = sandbox.intercept({ v1: 'https://api.pague.dev/v1' });
  try {
    const { Pdev } = (await import(sdk)) as { Pdev: new (key: string) => any };
    const pdev = new Pdev(sandbox.apiKey!);
    const pix = await pdev.pix.create({ amount: 150.75, description: 'Pedido 12345', customer: { name: 'João', document: '12345678909' } });
    expect(pix.error, JSON.stringify(pix.error)).toBeNull();
    expect(NODE_SDK.PixCharge.required.filter((k) => !(k in pix.data))).toEqual([]);
    // The same charge, seen by the control API of the sandbox the SDK never had a URL for.
    const seen = await sandbox.fetch(`${sandbox.url}/_sandbox/accounts/${sandbox.accountId}/transactions`);
    expect(((await seen.json()) as { items: { id: string }[] }).items.map((t) => t.id)).toContain(pix.data.id);
  } finally {
    interception.restore();
    await sandbox.stop();
  }
});

// Issue 36's mistakes, made as an SDK user makes them: the SDK sends whatever object it is given, so a misspelt field
// reaches the sandbox, which takes it as the service does (ignored) and names it in the request log; a misspelt
// required field is a 400 that names both the field missing and the one sent; a strict tenant gets a 400 for any; a
// wrong key is the service's 401. The SDK returns each refusal as its `error`.
test('mistakes made through the Node SDK are named: a misspelt field in the request log, in a 400, for a strict tenant, a wrong key', { timeout: 30_000 }, async () => {
  const sdk = process.env.PAGUE_SDK ?? join(dir, 'stand-in-mistakes.mjs');
  if (!process.env.PAGUE_SDK) writeFileSync(sdk, STAND_IN);
  const { Pdev } = (await import(sdk)) as { Pdev: new (key: string) => any };
  const lenient = await startSandbox();
  const strict = await startSandbox({ account: { strict: true } });
  const hint = 'descripton is not a field of this request; did you mean "description"?';
  let interception = lenient.intercept({ v1: 'https://api.pague.dev/v1' });
  try {
    const pdev = new Pdev(lenient.apiKey!);
    const pix = await pdev.pix.create({ amount: 10, description: 'Pedido 1', expiresInn: 600 });
    expect(pix.error, JSON.stringify(pix.error)).toBeNull();
    const [entry] = await lenient.requests({ path: '/v1/pix', method: 'POST' });
    expect(entry).toMatchObject({ status: 201, face: 'v1', warnings: ['unknown field "expiresInn"; did you mean "expiresIn"?'] });
    expect(entry!.headers['x-api-key']).toBe('[masked]');

    const missing = await pdev.pix.create({ amount: 10, descripton: 'Pedido 2' });
    expect(missing.data).toBeNull();
    expect(missing.error).toMatchObject({ statusCode: 400, message: `Invalid request: description is required; ${hint}` });

    const refused = await new Pdev('mp_test_not_a_key').pix.create({ amount: 10, description: 'Pedido 3' });
    expect(refused.data).toBeNull();
    expect(refused.error).toMatchObject({ statusCode: 401 });
  } finally {
    interception.restore();
  }
  interception = strict.intercept({ v1: 'https://api.pague.dev/v1' });
  try {
    const refused = await new Pdev(strict.apiKey!).pix.create({ amount: 10, description: 'Pedido 4', descripton: 'Pedido 4' });
    expect(refused.data).toBeNull();
    expect(refused.error).toMatchObject({ statusCode: 400, details: { fields: [{ field: 'descripton' }] } });
    const [entry] = await strict.requests({ path: '/v1/pix' });
    expect(entry).toMatchObject({ status: 400, method: 'POST' });
    const transactions = (await (await strict.fetch(`${strict.url}/_sandbox/accounts/${strict.accountId}/transactions`)).json()) as { items: unknown[] };
    expect(transactions.items).toEqual([]);
  } finally {
    interception.restore();
    await lenient.stop();
    await strict.stop();
  }
});
