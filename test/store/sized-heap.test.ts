// The heap a CLI start runs with (docs/data.md) and what a start past its record limit says (sandbox.md 6.1): a data
// file or a budget that wants more heap than Node's default gets a child process with --max-old-space-size sized to
// it (at most three quarters of the machine's memory), unless NODE_OPTIONS chose one; a file holding more records than
// the limit starts, and its banner and health say why it is read but not grown, where the limit comes from and what
// to restart with. The CLI runs on a real port.
import { totalmem } from 'node:os';
import { afterEach, expect, test } from 'vitest';
import { heapWanted, BYTES_PER_RECORD, HEAP_SHARE, MEMORY_SHARE } from '../../src/services/capacity';
import { DEFAULT, startHarness } from '../helpers/harness';
import { http, killLeftovers, startCli, tempDir } from '../foundation/process';

const cleanups: (() => void)[] = [];
afterEach(() => {
  killLeftovers();
  for (const c of cleanups.splice(0)) c();
});

const GB = 1024 ** 3;
test.each([
  ['a small file keeps the heap it has', { fileBytes: 5_000_000, heapLimit: 4.3 * GB, totalMemory: 24 * GB }, undefined],
  ['a file of about a million charges gets room for twice what it may hold', { fileBytes: 660_000_000, heapLimit: 4.3 * GB, totalMemory: 24 * GB }, Math.ceil((2 * Math.ceil(660_000_000 / 600) * BYTES_PER_RECORD) / HEAP_SHARE)],
  ['a bigger one at most three quarters of the memory', { fileBytes: 4_000_000_000, heapLimit: 4.3 * GB, totalMemory: 24 * GB }, Math.floor(24 * GB * MEMORY_SHARE)],
  ['a budget given wins over the file: a small one keeps the heap', { fileBytes: 2_000_000_000, maxBytes: 1 * GB, heapLimit: 4.3 * GB, totalMemory: 24 * GB }, undefined],
  ['a big budget gets the heap it needs', { fileBytes: 0, maxBytes: 6 * GB, heapLimit: 4.3 * GB, totalMemory: 24 * GB }, Math.ceil((6 * GB) / HEAP_SHARE)],
  ['never less than the heap it has', { fileBytes: 660_000_000, heapLimit: 20 * GB, totalMemory: 24 * GB }, undefined],
])('heapWanted: %s', (_name, given, wanted) => {
  expect(heapWanted(given)).toBe(wanted);
});

test.each([
  ['runs in a child with a heap sized to --max-records', {}, (heap: number, wanted: number) => expect(heap).toBeGreaterThanOrEqual(Math.min(wanted, totalmem() * MEMORY_SHARE) - 1024 ** 2)],
  ['keeps the heap NODE_OPTIONS chose', { NODE_OPTIONS: '--max-old-space-size=300' }, (heap: number) => expect(heap).toBeLessThan(400 * 1024 ** 2)],
])('a start whose budget wants more heap than the default %s, and stops cleanly', { timeout: 60_000 }, async (_name, env, heapCheck) => {
  const records = 4_000_000;
  const cli = await startCli(['--port', '0', '--max-records', String(records)], env);
  const health = await http(cli.url, 'GET', '/_sandbox/health');
  expect(health.status).toBe(200);
  expect(health.body).toMatchObject({ maxRecords: records, storageFull: false, storageNote: null });
  heapCheck(health.body.heapLimitBytes, (records * BYTES_PER_RECORD) / HEAP_SHARE);
  expect(cli.stdout()).toContain(`records     ${health.body.records} held of ${records}`);
  expect(await cli.stop(), cli.stderr()).toBe(0);
});

test('a data file holding more records than --max-records starts, reads them all, refuses creates, and its banner and health say why and what raises the limit', { timeout: 60_000 }, async () => {
  const tmp = tempDir();
  cleanups.push(tmp.cleanup);
  const file = tmp.file('state.json');
  const first = await startHarness({ dataFile: file });
  const made: string[] = [];
  for (let i = 0; i < 3; i++) made.push((await first.control('POST', `/accounts/${DEFAULT.accountId}/charges`, { amount: 1, description: 'a' })).body.id);
  const held = first.sb.deps.store.records;
  await first.sb.close();

  const limit = held - 2;
  const cli = await startCli(['--port', '0', '--data', file, '--max-records', String(limit)]);
  const health = await http(cli.url, 'GET', '/_sandbox/health');
  expect(health.body).toMatchObject({ records: held, maxRecords: limit, storageFull: true });
  const note = health.body.storageNote as string;
  expect(note).toContain(`${held} records held`);
  expect(note).toContain(`past the limit of ${limit}`);
  expect(note).toContain(`comes from --max-records ${limit}`);
  expect(note).toMatch(/All of them were read and answer reads.*a create answers 507 STORAGE_FULL, because/);
  expect(note).toContain(`restart with --max-records ${Math.ceil(Math.max(2 * held, limit + 1000) / 1000) * 1000}`);
  expect(cli.stdout()).toContain(`  records     FULL: ${note}\n`);

  const token = (await http(cli.url, 'POST', '/v2/auth', { body: { client_id: DEFAULT.full.clientId, client_secret: DEFAULT.full.clientSecret } })).body.access_token as string;
  const charge = await http(cli.url, 'GET', `/v2/transactions/${made[2]}`, { token });
  expect(charge.status, JSON.stringify(charge.body)).toBe(200);
  const create = await http(cli.url, 'POST', `/_sandbox/accounts/${DEFAULT.accountId}/charges`, { body: { amount: 1, description: 'one more' } });
  expect(create.status).toBe(507);
  expect(create.body.details).toMatchObject({ code: 'STORAGE_FULL', limit, records: held });
  expect(await cli.stop(), cli.stderr()).toBe(0);
});
