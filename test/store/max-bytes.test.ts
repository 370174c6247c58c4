// The budget is in bytes (sandbox.md 11, 6.1): a record weighs 2048 bytes and what its metadata (or a cob's
// infoAdicionais) adds, so a create whose record would pass the budget answers 507 STORAGE_FULL whatever its size,
// before anything is stored; reads and deletes go on, deletes release the weight, and a restart from --data weighs the
// records again. Metadata has documented bounds (50 keys, keys of 40 characters, 8 KB as JSON). On a real port.
import { afterEach, describe, expect, test } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/app';
import type { SandboxOptions } from '../../src/config';
import { DEFAULT, startHarness } from '../helpers/harness';
import { TXID, apiPix, cobBody, pixToken } from '../helpers/api-pix';
import { BYTES_PER_RECORD, COPY_WEIGHT } from '../../src/store/weight';
import { tallyOf } from '../../src/store/unit';
import { readCliConfig } from '../../src/config';
import { tempDir } from '../foundation/process';

const open: Sandbox[] = [];
afterEach(async () => {
  for (const sb of open.splice(0)) await sb.close();
});

/** A sandbox on a real port, and calls to it as a client makes them. */
async function served(options: SandboxOptions) {
  const sb = await createSandbox({ log: () => {}, requestLog: 0, ...options });
  open.push(sb);
  const url = await sb.listen({ port: 0, host: '127.0.0.1' });
  const call = async (method: string, path: string, body?: unknown, token?: string, headers: Record<string, string> = {}) => {
    const res = await fetch(url + path, { method, headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    return { status: res.status, text, body: text ? JSON.parse(text) : undefined };
  };
  const token = (await call('POST', '/v2/auth', { client_id: DEFAULT.full.clientId, client_secret: DEFAULT.full.clientSecret })).body.access_token as string;
  return { sb, call, v2: (method: string, path: string, body?: unknown) => call(method, `/v2${path}`, body, token) };
}

/** Metadata of `keys` keys of 40 characters whose JSON is about `bytes` long. */
function metadataOf(bytes: number, keys = 20): Record<string, string> {
  const m: Record<string, string> = {};
  const each = Math.max(1, Math.floor(bytes / keys) - 46);
  for (let i = 0; i < keys; i++) m[`k${String(i).padStart(39, '0')}`] = 'v'.repeat(each);
  return m;
}
const weightOf = (metadata: object) => BYTES_PER_RECORD + COPY_WEIGHT * JSON.stringify(metadata).length;

describe('the byte budget', () => {
  test('a create whose metadata would pass the budget answers 507 and stores nothing; a plain one still fits; reads and deletes go on', async () => {
    const probe = await served({});
    const held = probe.sb.deps.store.bytes;
    // Room for three plain records: two heavy charges do not fit, one does.
    const { sb, call, v2 } = await served({ maxBytes: held + 3 * BYTES_PER_RECORD + 1000 });
    const big = metadataOf(7000);
    expect(weightOf(big)).toBeGreaterThan(3 * BYTES_PER_RECORD);
    const before = { records: sb.deps.store.records, bytes: sb.deps.store.bytes, transactions: Object.keys(sb.deps.store.raw.accounts[DEFAULT.accountId]!.transactions) };

    const refused = await v2('POST', '/pix', { amount: 10, description: 'heavy', metadata: big });
    expect(refused.status, refused.text).toBe(507);
    expect(refused.body).toMatchObject({ statusCode: 507, details: { code: 'STORAGE_FULL', weight: weightOf(big), bytes: held, maxBytes: held + 3 * BYTES_PER_RECORD + 1000 } });
    expect(refused.body.message).toContain(`--max-bytes ${held + 3 * BYTES_PER_RECORD + 1000}`);
    expect(refused.body.message).toContain('a smaller one may still fit');
    expect({ records: sb.deps.store.records, bytes: sb.deps.store.bytes, transactions: Object.keys(sb.deps.store.raw.accounts[DEFAULT.accountId]!.transactions) }).toEqual(before);

    const plain = await v2('POST', '/pix', { amount: 10, description: 'plain', metadata: { orderId: '1' } });
    expect(plain.status, plain.text).toBe(201);
    expect((await v2('GET', `/transactions/${plain.body.id}`)).status).toBe(200);
    const health = (await call('GET', '/_sandbox/health')).body;
    expect(health).toMatchObject({ bytesHeld: held + weightOf({ orderId: '1' }), maxBytes: held + 3 * BYTES_PER_RECORD + 1000, storageFull: false });
    expect(health.maxRecords).toBe(Math.floor(health.maxBytes / BYTES_PER_RECORD));

    // A tenant's records released with it: the weight held comes back to what it was.
    const tenant = (await call('POST', '/_sandbox/accounts', { name: 'CI job' })).body.id as string;
    const mid = sb.deps.store.bytes;
    expect((await call('POST', `/_sandbox/accounts/${tenant}/charges`, { amount: 1, description: 'a', metadata: { a: 'b' } })).status).toBe(201);
    expect(sb.deps.store.bytes).toBe(mid + weightOf({ a: 'b' }));
    expect((await call('DELETE', `/_sandbox/accounts/${tenant}`)).status).toBe(200);
    expect(sb.deps.store.bytes).toBe(mid);
    expect(sb.deps.store.bytes).toBe(tallyOf(sb.deps.store.raw).bytes);
  });

  test('a cob whose infoAdicionais would pass the budget answers 507 in the problem envelope and stores nothing; a PATCH of them is weighed', async () => {
    const probe = await startHarness();
    const held = probe.sb.deps.store.bytes;
    await probe.sb.close();
    const h = await startHarness({ maxBytes: held + 4 * BYTES_PER_RECORD });
    open.push(h.sb);
    const token = await pixToken(h);
    const info = Array.from({ length: 50 }, (_, i) => ({ nome: `campo${i}`.padEnd(50, 'x'), valor: 'v'.repeat(200) }));
    const refused = await apiPix(h, 'PUT', `/cob/${TXID}`, { body: cobBody({ infoAdicionais: info }), token });
    expect(refused.status, refused.text).toBe(507);
    expect(refused.headers.get('content-type')).toContain('application/problem+json');
    expect(h.sb.deps.store.bytes).toBe(held);
    expect((await apiPix(h, 'PUT', `/cob/${TXID}`, { body: cobBody(), token })).status).toBe(201);
    const before = h.sb.deps.store.bytes;
    const patched = await apiPix(h, 'PATCH', `/cob/${TXID}`, { body: { infoAdicionais: info.slice(0, 2) }, token });
    expect(patched.status, patched.text).toBe(200);
    expect(h.sb.deps.store.bytes).toBe(before + COPY_WEIGHT * JSON.stringify(info.slice(0, 2)).length);
    expect(h.sb.deps.store.bytes).toBe(tallyOf(h.sb.deps.store.raw).bytes);
  });

  test('a restart from --data weighs the records again', async () => {
    const tmp = tempDir();
    try {
      const first = await served({ dataFile: tmp.file('state.json') });
      expect((await first.v2('POST', '/pix', { amount: 10, description: 'kept', metadata: metadataOf(3000) })).status).toBe(201);
      const bytes = first.sb.deps.store.bytes;
      await first.sb.close();
      open.splice(open.indexOf(first.sb), 1);
      const again = await served({ dataFile: tmp.file('state.json') });
      expect(again.sb.deps.store.bytes).toBe(bytes);
      expect((await again.call('GET', '/_sandbox/health')).body.bytesHeld).toBe(bytes);
    } finally {
      for (const sb of open.splice(0)) await sb.close();
      tmp.cleanup();
    }
  });
});

describe('metadata bounds', () => {
  test.each([
    ['51 keys', Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 1])), /at most 50 keys/],
    ['a key of 41 characters', { ['k'.repeat(41)]: 1 }, /keys must be at most 40 characters/],
    ['8193 bytes as JSON', { a: 'x'.repeat(8193 - 8) }, /at most 8192 bytes as JSON \(got 8193\)/],
  ])('%s is a 400 VALIDATION_ERROR naming metadata and the bound, on v2 and v1', async (_name, metadata, message) => {
    const { call, v2 } = await served({});
    const res = await v2('POST', '/pix', { amount: 10, description: 'x', metadata });
    expect(res.status, res.text).toBe(400);
    expect(res.body.details.code).toBe('VALIDATION_ERROR');
    expect(res.text).toContain('metadata');
    expect(res.text).toMatch(message);
    const v1 = await call('POST', '/v1/pix', { amount: 10, description: 'x', metadata }, undefined, { 'x-api-key': DEFAULT.apiKey });
    expect(v1.status, v1.text).toBe(400);
    expect(v1.text).toMatch(message);
  });

  test('50 keys of 40 characters within 8192 bytes are taken', async () => {
    const { v2 } = await served({});
    const metadata = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${String(i).padStart(39, '0')}`, 'v'.repeat(110)]));
    expect(JSON.stringify(metadata).length).toBeLessThanOrEqual(8192);
    const res = await v2('POST', '/pix', { amount: 10, description: 'x', metadata });
    expect(res.status, res.text).toBe(201);
  });
});

describe('--max-bytes', () => {
  test.each([
    ['64MB', 64 * 1024 * 1024],
    ['500_000', 500_000],
    ['2gb', 2 * 1024 ** 3],
  ])('%s is read', (text, bytes) => {
    expect((readCliConfig(['--max-bytes', text], {}) as { options: { maxBytes: number } }).options.maxBytes).toBe(bytes);
    expect((readCliConfig([], { SANDBOX_MAX_BYTES: text }) as { options: { maxBytes: number } }).options.maxBytes).toBe(bytes);
  });
  test.each(['0', '2047', 'lots', '1.5MB', '-1'])('%j is refused with a clear message', (text) => {
    expect((readCliConfig([`--max-bytes=${text}`], {}) as { error: string }).error).toMatch(/^--max-bytes must be a whole number of bytes of at least 2048/);
  });
  test('with --max-records is refused: they set the same budget', () => {
    expect((readCliConfig(['--max-bytes', '1MB', '--max-records', '10'], {}) as { error: string }).error).toMatch(/give one of them/);
  });
});
