// --max-records (sandbox.md 6.1): at the limit, creates answer 507 STORAGE_FULL in the face's envelope, naming the
// limit and the way out, while reads, deletes, payments and control actions go on; health shows records held against
// the limit; the count follows creates, deletes, undone units and resets; a start past the limit starts and says so.
import type { Deps } from '../../src/deps';
import { afterEach, describe, expect, test } from 'vitest';
import { DEFAULT, startHarness, type Harness } from '../helpers/harness';
import { apiPix, cobBody, pixToken } from '../helpers/api-pix';
import { v1call } from '../helpers/v1-calls';
import { countRecords } from '../../src/store/unit';
import { defaultMaxRecords, BYTES_PER_RECORD, HEAP_SHARE, oldestRecordMs } from '../../src/services/capacity';
import { readCliConfig } from '../../src/config';
import { tempDir } from '../foundation/process';

const harnesses: Harness[] = [];
afterEach(async () => {
  for (const h of harnesses.splice(0)) await h.sb.close();
});

/** A sandbox whose limit is what the fixtures hold plus `room` records. */
async function sandboxWithRoom(room: number, extra: Parameters<typeof startHarness>[0] = {}) {
  const probe = await startHarness();
  const held = (await probe.control('GET', '/health')).body.records as number;
  await probe.sb.close();
  const h = await startHarness({ maxRecords: held + room, ...extra });
  harnesses.push(h);
  return { h, held };
}

const charge = (h: Harness) => h.control('POST', `/accounts/${DEFAULT.accountId}/charges`, { amount: 10, description: 'one more' });
const HOLDER = { pixKey: 'fulano@example.com', pixKeyType: 'email', holderName: 'Fulano de Tal', holderDocument: '52998224725', holderDocumentType: 'cpf' };

describe('at the limit', () => {
  test.each([
    ['v2 POST /v2/pix', (h: Harness) => h.v2('POST', '/pix', { body: { amount: 10, description: 'x' } })],
    ['v2 POST /v2/withdrawals', (h: Harness) => h.v2('POST', '/withdrawals', { body: { ...HOLDER, amount: 10 } })],
    ['v1 POST /v1/pix', (h: Harness) => v1call(h, 'POST', '/pix', { amount: 10, description: 'x' })],
    ['control POST /_sandbox/accounts/{id}/charges', charge],
  ])('%s answers 507 STORAGE_FULL naming the limit and the way out, and makes nothing', async (_name, create) => {
    const { h, held } = await sandboxWithRoom(1);
    expect((await charge(h)).status).toBe(201);
    const res = await create(h);
    expect(res.status, res.text).toBe(507);
    expect(res.body).toMatchObject({ statusCode: 507, error: 'InsufficientStorage', details: { code: 'STORAGE_FULL', limit: held + 1, records: held + 1 } });
    expect(res.body.message).toContain(`--max-records ${held + 1}`);
    expect(res.body.message).toContain('DELETE /_sandbox/accounts/{id}');
    expect(countRecords(h.sb.deps.store.raw)).toBe(held + 1);
  });

  test('API Pix PUT /cob answers 507 in its problem envelope naming the limit, and makes nothing', async () => {
    const { h, held } = await sandboxWithRoom(0);
    const res = await apiPix(h, 'PUT', '/cob/pedido1234sandboxtxid0000009', { body: cobBody(), token: await pixToken(h) });
    expect(res.status, res.text).toBe(507);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(res.body).toMatchObject({ type: 'https://pix.bcb.gov.br/api/v2/error/ServicoIndisponivel', status: 507 });
    expect(res.body.detail).toContain(`--max-records ${held}`);
    expect(h.sb.deps.store.records).toBe(held);
  });

  test.each([
    ['GET /v2/transactions/{id}', (h: Harness, id: string) => h.v2('GET', `/transactions/${id}`), 200],
    ['GET /v1/pix/{id}', (h: Harness, id: string) => v1call(h, 'GET', `/transactions/${id}`), 200],
    ['POST /_sandbox/transactions/{id}/pay', (h: Harness, id: string) => h.control('POST', `/transactions/${id}/pay`, {}), 200],
    ['GET /_sandbox/accounts', (h: Harness) => h.control('GET', '/accounts'), 200],
    ['DELETE /_sandbox/accounts/{id} of another tenant', async (h: Harness) => h.control('DELETE', `/accounts/${(await h.control('POST', '/accounts', { name: 'CI job' })).body.id}`), 200],
  ])('%s goes on', async (_name, call, status) => {
    const { h } = await sandboxWithRoom(1);
    const made = await charge(h);
    const res = await call(h, made.body.id);
    expect(res.status, res.text).toBe(status);
  });

  test('health shows records held against the limit; deleting a tenant with records makes room again', async () => {
    const { h, held } = await sandboxWithRoom(2);
    const tenant = (await h.control('POST', '/accounts', { name: 'CI job' })).body.id as string;
    expect((await h.control('POST', `/accounts/${tenant}/charges`, { amount: 1, description: 'a' })).status).toBe(201);
    expect((await charge(h)).status).toBe(201);
    expect((await h.control('GET', '/health')).body).toMatchObject({ records: held + 2, maxRecords: held + 2, storageFull: true });
    expect((await charge(h)).status).toBe(507);
    expect((await h.control('DELETE', `/accounts/${tenant}`)).status).toBe(200);
    expect((await h.control('GET', '/health')).body).toMatchObject({ records: held + 1, storageFull: false });
    expect((await charge(h)).status).toBe(201);
  });
});

describe('the oldest record', () => {
  test('health reports when the oldest record held was made, null once none is held; the console shows the records line', async () => {
    const { h } = await sandboxWithRoom(1000);
    const accounts = h.sb.deps.store.state.accounts;
    const every = Object.values(accounts).flatMap((a) => Object.values(a.transactions).map((t) => t.createdAt));
    const health = (await h.control('GET', '/health')).body;
    expect(health.oldestRecordAt).toBe(every.length ? new Date(Math.min(...every)).toISOString() : null);
    const page = await (await h.sb.app.request('/')).text();
    expect(page).toMatch(new RegExp(`id="records-line">Sandbox holds ${health.records.toLocaleString('en-US')} records of ${health.maxRecords.toLocaleString('en-US')}`));

    for (const id of Object.keys(accounts)) expect((await h.control('DELETE', `/accounts/${id}`)).status).toBe(200);
    expect((await h.control('GET', '/health')).body).toMatchObject({ records: 0, oldestRecordAt: null });
    const tenant = (await h.control('POST', '/accounts', { name: 'CI job' })).body.id as string;
    const made = await h.control('POST', `/accounts/${tenant}/charges`, { amount: 1, description: 'a' });
    expect((await h.control('GET', '/health')).body).toMatchObject({ records: 1, oldestRecordAt: made.body.createdAt });
  });
});

describe('the count', () => {
  test('follows creates, a unit undone half-way, a reset and a deleted tenant', async () => {
    const { h } = await sandboxWithRoom(1000);
    const store = h.sb.deps.store;
    const same = () => expect(store.records).toBe(countRecords(store.raw));
    for (let i = 0; i < 3; i++) await charge(h);
    await h.v2('POST', '/withdrawals', { body: { ...HOLDER, amount: 10 } });
    same();
    // A create (with an Idempotency-Key: more than one write) that fails at each of its writes in turn: undone, the
    // count with it.
    let failed = 0;
    for (let n = 1; ; n++) {
      h.sb.deps.store.hooks.failWrite = { kind: 'request', n };
      const res = await h.v2('POST', '/pix', { body: { amount: 10, description: 'x' }, headers: { 'Idempotency-Key': `count-key-${n}` } });
      same();
      if (res.status === 201) break;
      expect(res.status, res.text).toBe(500);
      failed++;
    }
    h.sb.deps.store.hooks.failWrite = null;
    expect(failed, 'the create has writes after the transaction is stored').toBeGreaterThan(1);
    const tenant = (await h.control('POST', '/accounts', { name: 'CI job' })).body.id as string;
    await h.control('POST', `/accounts/${tenant}/charges`, { amount: 1, description: 'a' });
    same();
    await h.control('DELETE', `/accounts/${tenant}`);
    same();
    await h.control('POST', '/reset', {});
    same();
  });
});

describe('start-up', () => {
  test('a data file holding more than the limit starts, says so, and refuses creates', async () => {
    const tmp = tempDir();
    const file = tmp.file('state.json');
    try {
      const first = await startHarness({ dataFile: file });
      for (let i = 0; i < 3; i++) await first.control('POST', `/accounts/${DEFAULT.accountId}/charges`, { amount: 1, description: 'a' });
      const held = first.sb.deps.store.records;
      await first.sb.close();
      const lines: string[] = [];
      const h = await startHarness({ dataFile: file, maxRecords: held - 2, log: (l) => lines.push(l) });
      harnesses.push(h);
      expect(lines.join('\n')).toMatch(new RegExp(`${held} records held .*past the limit of ${held - 2} .*comes from --max-records ${held - 2}\\. .*a create answers 507 STORAGE_FULL`));
      expect((await charge(h)).status).toBe(507);
      expect((await h.control('GET', '/health')).body).toMatchObject({ records: held, maxRecords: held - 2, storageFull: true });
    } finally {
      for (const h of harnesses.splice(0)) await h.sb.close();
      tmp.cleanup();
    }
  });

  test.each(['0', '-5', '1.5', 'many', '1e6', ''])('--max-records %j is refused with a clear message', (value) => {
    const got = readCliConfig([`--max-records=${value}`], {});
    expect(got).toHaveProperty('error');
    expect((got as { error: string }).error).toMatch(/^--max-records must be a whole number of records of at least 1 .*got '/);
  });

  test('--max-records 500_000 and SANDBOX_MAX_RECORDS are read; createSandbox refuses a bad value before touching anything', async () => {
    expect((readCliConfig(['--max-records', '500_000'], {}) as { options: { maxRecords: number } }).options.maxRecords).toBe(500000);
    expect((readCliConfig([], { SANDBOX_MAX_RECORDS: '42' }) as { options: { maxRecords: number } }).options.maxRecords).toBe(42);
    await expect(startHarness({ maxRecords: 0 })).rejects.toThrow(/maxRecords \(--max-records\) must be a whole number of records of at least 1/);
  });

  test('the default is three quarters of the heap limit at 2 KB a record, in thousands', () => {
    expect(BYTES_PER_RECORD).toBe(2048);
    expect(HEAP_SHARE).toBe(0.75);
    expect(defaultMaxRecords(4_345_298_944)).toBe(1_591_000);
    expect(defaultMaxRecords(1)).toBe(1000);
  });
});

describe('the oldest record, remembered', () => {
  test('is looked for again once the first record of an account is gone or replaced', () => {
    const transactions: Record<string, { createdAt: number }> = { a: { createdAt: 5 }, b: { createdAt: 7 }, c: { createdAt: 9 } };
    const deps = { store: { state: { accounts: { x: { transactions } } } } } as unknown as Deps;
    expect(oldestRecordMs(deps)).toBe(5);
    delete transactions.a;
    expect(oldestRecordMs(deps)).toBe(7);
    transactions.b = { createdAt: 6 };
    expect(oldestRecordMs(deps)).toBe(6);
    delete transactions.b;
    delete transactions.c;
    expect(oldestRecordMs(deps)).toBeNull();
  });
});
