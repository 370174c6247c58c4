// The QR images of creates are drawn in a worker thread (services/qr-images.ts) when the sandbox runs from its build:
// these tests run the built package (npm test builds dist/ first), so the thread is the one drawing. Every image must
// be the one qrPngDataUrl draws for the charge's own BR Code, also when creates and renames of the account interleave
// (a rename between the draw and the write makes another code, whose image is then drawn in line).
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { qrPngDataUrl } from '../../src/pix';
import { DEFAULT } from '../helpers/harness';

type Built = typeof import('../../src/index');
const DIST_INDEX = new URL('../../dist/index.js', import.meta.url);
let sb: Awaited<ReturnType<Built['createSandbox']>>;
let headers: Record<string, string>;
let apiKey: string;
let accountName: string;

beforeAll(async () => {
  const built = (await import(DIST_INDEX.href)) as Built;
  sb = await built.createSandbox({ log: () => {} });
  const auth = await sb.app.request('/v2/auth', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ client_id: DEFAULT.full.clientId, client_secret: DEFAULT.full.clientSecret }) });
  headers = { authorization: `Bearer ${((await auth.json()) as { access_token: string }).access_token}`, 'content-type': 'application/json' };
  const account = (await (await sb.app.request(`/_sandbox/accounts/${DEFAULT.accountId}`)).json()) as { name: string; apiKeys: { key: string }[] };
  apiKey = account.apiKeys[0]!.key;
  accountName = account.name;
});
afterAll(() => sb.close());

/** Threads of this process (Linux), to see the drawing thread come. */
const threads = () => readdirSync('/proc/self/task').length;

const create = (i: number) =>
  i % 2
    ? sb.app.request('/v2/pix', { method: 'POST', headers, body: JSON.stringify({ amount: 10 + i, description: `charge ${i}` }) })
    : sb.app.request('/v1/pix', { method: 'POST', headers: { 'x-api-key': apiKey, 'content-type': 'application/json' }, body: JSON.stringify({ amount: 10 + i, description: `charge ${i}` }) });

/** The merchant name in each answer's BR Code, once its image is checked to be the one of that code. */
async function merchantsOf(answers: Response[]): Promise<string[]> {
  const names = [];
  for (const res of answers) {
    const body = (await res.json()) as { pixCopyPaste: string; qrCodeBase64: string };
    expect(res.status, JSON.stringify(body)).toBe(201);
    expect(body.qrCodeBase64).toBe(qrPngDataUrl(body.pixCopyPaste));
    names.push(/5802BR59\d\d(.*?)60\d\d/.exec(body.pixCopyPaste)![1]!);
  }
  return names;
}

test('creates on both faces answer the image of their own BR Code, drawn by the thread', async () => {
  const before = process.platform === 'linux' ? threads() : 0;
  const names = await merchantsOf(await Promise.all(Array.from({ length: 30 }, (_, i) => create(i))));
  expect(new Set(names)).toEqual(new Set([accountName]));
  if (process.platform === 'linux') expect(threads()).toBeGreaterThan(before);
});

test('a rename of the account while the images are drawn: the charges carry the new name and the image of that code', async () => {
  const creates = Array.from({ length: 10 }, (_, i) => create(i));
  const renamed = await sb.app.request(`/_sandbox/accounts/${DEFAULT.accountId}`, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Loja Nova' }) });
  expect(renamed.status).toBe(200);
  expect(new Set(await merchantsOf(await Promise.all(creates)))).toEqual(new Set(['Loja Nova']));
});

test('a script that awaits a create in process, with no server, gets its answer and then exits (the idle thread holds nothing)', () => {
  const script = `
    const { createSandbox } = await import(${JSON.stringify(DIST_INDEX.href)});
    const sb = await createSandbox({ log: () => {} });
    const auth = await (await sb.app.request('/v2/auth', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ client_id: '${DEFAULT.full.clientId}', client_secret: '${DEFAULT.full.clientSecret}' }) })).json();
    const res = await sb.app.request('/v2/pix', { method: 'POST', headers: { authorization: 'Bearer ' + auth.access_token, 'content-type': 'application/json' }, body: JSON.stringify({ amount: 12, description: 'x' }) });
    const body = await res.json();
    console.log(res.status, body.qrCodeBase64.slice(0, 22));
  `;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 20_000 });
  expect(run.stderr).toBe('');
  expect(run.stdout.trim()).toBe('201 data:image/png;base64,');
  expect(run.status).toBe(0);
});
